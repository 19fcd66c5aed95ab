import Foundation
import OpenSSLCrypto
import PassgateCore
import ProviderJVerification
import Testing
import PassgateTestSupport

/// JVerification's requests and replies, call by call: what is sent (path, Basic authorization,
/// body) and what each answer becomes.
@Suite("JVerification provider")
struct JVerificationProviderTests {
    static var key: RSAPrivateKey { TestRSAKeys.primary1024 }
    static var otherKey: RSAPrivateKey { TestRSAKeys.secondary1024 }
    static let app = JVerificationApp(appId: "jg-shop", appKey: "7d431e42dfa6a6d693ac2d04", masterSecret: "5e987ac6d2e04d95a9d8f0d1", privateKey: key)
    static let context = CallContext(requestId: "req-0001")

    static func reply(_ json: String, status: Int = 200, contentType: String = "application/json") -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: contentType, body: Array(json.utf8))
    }

    static func encryptedPhone(_ number: String = "13900001234", key: RSAPrivateKey = key) throws -> String {
        Data(try key.publicKey.encrypt(Array(number.utf8))).base64EncodedString()
    }

    @Test("HTTP Basic authorization matches the documented vector")
    func basicAuthorizationVector() {
        #expect(JVerificationRequest.authorization(Self.app) == "Basic N2Q0MzFlNDJkZmE2YTZkNjkzYWMyZDA0OjVlOTg3YWM2ZDJlMDRkOTVhOWQ4ZjBkMQ==")
    }

    @Test("login: POST /v1/web/loginTokenVerify with loginToken and our request id as exID; the number decrypted, the 64-bit id kept exactly")
    func login() throws {
        let call = try JVerificationProvider().phoneNumber(app: Self.app, token: "tok-A", context: Self.context)
        #expect(call.request.path == "/v1/web/loginTokenVerify" && call.request.method == .post && call.request.msgid == "req-0001")
        #expect(call.request.headers.contains { $0 == ("Authorization", JVerificationRequest.authorization(Self.app)) })
        #expect(call.request.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("application/json") })
        let body = try #require(JSONSerialization.jsonObject(with: Data(call.request.body)) as? [String: String])
        #expect(body == ["loginToken": "tok-A", "exID": "req-0001"])

        let answer = call.interpret(Self.reply(
            #"{"id": 117270465679982592, "code": 8000, "content": "get phone success", "exID": "req-0001", "phone": "\#(try Self.encryptedPhone())"}"#))
        let outcome = try answer.result.get()
        #expect(outcome.phoneNumber == "13900001234" && outcome.carrierTaskId == "117270465679982592" && outcome.riskScore == nil)
        #expect(answer.rawCode == "8000" && answer.taskId == "117270465679982592" && answer.billable)
    }

    @Test("apiVersion 2: the v2 path, and the risk score comes back")
    func loginV2() throws {
        let app = JVerificationApp(appId: "jg-shop", appKey: "k", masterSecret: "s", privateKey: Self.key, apiVersion: 2)
        let call = try JVerificationProvider().phoneNumber(app: app, token: "tok", context: Self.context)
        #expect(call.request.path == "/v2/web/loginTokenVerify")
        let answer = call.interpret(Self.reply(#"{"id": 1, "code": 8000, "phone": "\#(try Self.encryptedPhone())", "score": 420}"#))
        #expect(try answer.result.get().riskScore == 420)
        let bad = call.interpret(Self.reply(#"{"code": 8000, "phone": "\#(try Self.encryptedPhone())", "score": "high"}"#))
        #expect(bad.result.failureCode == .carrierBadResponse)
    }

    @Test("the number encrypted to another key is msisdn_decrypt_failed, still billed")
    func wrongKey() throws {
        let call = try JVerificationProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(#"{"code": 8000, "phone": "\#(try Self.encryptedPhone(key: Self.otherKey))"}"#))
        #expect(answer.result.failureCode == .msisdnDecryptFailed && answer.billable)
    }

    @Test("an app without privateKey is refused before any call, naming the key")
    func noPrivateKey() {
        let app = JVerificationApp(appId: "jg-verify", appKey: "k", masterSecret: "s", privateKey: nil)
        let error = #expect(throws: PassgateError.self) { try JVerificationProvider().phoneNumber(app: app, token: "tok", context: Self.context) }
        #expect(error?.code == .appNotEnabled && error?.message.contains("apps[].privateKey") == true)
    }

    @Test("verification: POST /v1/web/verify; 9000 match, 9001 mismatch, 9002 unknown (not billed)", arguments: [
        ("9000", VerificationResult.match, true), ("9001", .mismatch, true), ("9002", .unknown, false),
    ])
    func verify(code: String, result: VerificationResult, billable: Bool) throws {
        let call = try JVerificationProvider().verify(app: Self.app, token: "tok-V", phoneNumber: "13900001234", context: Self.context)
        #expect(call.request.path == "/v1/web/verify")
        let body = try #require(JSONSerialization.jsonObject(with: Data(call.request.body)) as? [String: String])
        #expect(body == ["token": "tok-V", "phone": "13900001234", "exID": "req-0001"])
        let answer = call.interpret(Self.reply(#"{"id": 99, "code": \#(code), "content": "verify", "exID": "req-0001"}"#))
        #expect(try answer.result.get() == VerificationOutcome(result: result, carrierTaskId: "99"))
        #expect(answer.billable == billable)
    }

    @Test("error codes map with their raw code and message, whatever the HTTP status", arguments: [
        ("9003", PassgateError.Code.tokenInvalid, false, 403), ("9011", .signatureRejected, false, 401), ("9005", .rateLimited, true, 200),
        ("1804", .rateLimited, true, 429), ("9018", .quotaExhausted, false, 200), ("9020", .appNotEnabled, false, 400),
        ("9099", .carrierError, false, 500), ("1802", .carrierError, false, 200),
    ])
    func errorCodes(code: String, expected: PassgateError.Code, retryable: Bool, status: Int) throws {
        let call = try JVerificationProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(#"{"code": \#(code), "content": "failure 13900001234"}"#, status: status))
        guard case .failure(let error) = answer.result else { Issue.record("accepted"); return }
        #expect(error.code == expected && error.retryable == retryable && !answer.billable && answer.rawCode == code)
        guard case .carrier(let carrier) = error.reason else { Issue.record("\(error.reason)"); return }
        #expect(carrier.provider == "jverification" && carrier.code == code)
        #expect(carrier.message?.contains("13900001234") == false, "the provider's message is redacted")
    }

    @Test("a reply that is no answer is carrier_bad_response, described without its content", arguments: [
        ("<html><body>502 Bad Gateway 13900001234</body></html>", "text/html", 502),
        (#"{"code": 8000, "phone": "abc"#, "application/json", 200),
        (#"{"content": "no code 13900001234"}"#, "application/json", 200),
        (#"{"code": "13900001234"}"#, "application/json", 200),
        (#"{"code": 8000, "exID": "someone-else"}"#, "application/json", 200),
        (#"{"code": 8000}"#, "application/json", 200),
        (#"{"code": 9000}"#, "application/json", 200),
    ])
    func badReplies(body: String, contentType: String, status: Int) throws {
        let call = try JVerificationProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(body, status: status, contentType: contentType))
        guard case .failure(let error) = answer.result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse, "\(error)")
        #expect(!"\(error) \(error.message)".contains("13900001234"))
    }
}

extension JVerificationProviderTests {
    struct StrangerApp: ProviderApp {
        var appId = "stranger"
        var fingerprint: [UInt8] { [] }
    }

    @Test("another provider's app reaching this provider is an internal_error, not a crash")
    func foreignApp() {
        let error = #expect(throws: PassgateError.self) { try JVerificationProvider().phoneNumber(app: StrangerApp(), token: "t", context: Self.context) }
        #expect(error?.code == .internalError)
        #expect(error.map { "\($0)".contains("reached the jverification provider") } == true, "the log detail names the provider")
    }
}

extension Result where Failure == PassgateError {
    var failureCode: PassgateError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
