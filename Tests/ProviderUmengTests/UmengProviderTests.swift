import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderUmeng
import Testing

/// Umeng U-Verify through the Alibaba Cloud API gateway: the notes' signature vector, the headers
/// as sent, business answers, and gateway refusals that only a header carries.
@Suite("Umeng provider")
struct UmengProviderTests {
    static let app = UmengApp(appId: "umengappkey01", gatewayAppKey: "204000001", gatewayAppSecret: "umAppSecret0001")
    static let clock = ManualClock(milliseconds: 1_764_396_000_000)
    static var context: CallContext { CallContext(clock: clock, requestId: "req-um") }

    static func reply(_ json: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: "application/json; charset=utf-8", body: Array(json.utf8), headers: headers)
    }

    @Test("the gateway signature of the notes' vector")
    func signatureVector() throws {
        let request = try UmengRequest(app: Self.app, token: "tok", nonce: "c9f15cbf-f4ac-4a6c-b54d-f51abf4b5b44", timestamp: 1_764_396_000_000)
        #expect(request.stringToSign == "POST\napplication/json\n\napplication/json; charset=UTF-8\n\nx-ca-key:204000001\nx-ca-nonce:c9f15cbf-f4ac-4a6c-b54d-f51abf4b5b44\nx-ca-stage:RELEASE\nx-ca-timestamp:1764396000000\nx-ca-version:1\n/api/v1/mobile/info?appkey=umengappkey01")
        #expect(request.signature == "mEYbTHYn5TjJF4hkAUU4vc4obiti/AC+tFTFSzFGjtM=")
    }

    @Test("the request: explicit Accept, the signed x-ca headers named in x-ca-signature-headers, a fresh UUID nonce, ms from the call's clock")
    func request() throws {
        let first = try UmengProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let second = try UmengProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let headers = Dictionary(first.request.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        #expect(first.request.path == "/api/v1/mobile/info?appkey=umengappkey01" && first.request.method == .post)
        #expect(headers["accept"] == "application/json" && headers["x-ca-timestamp"] == "1764396000000" && headers["x-ca-stage"] == "RELEASE")
        #expect(headers["x-ca-signature-headers"] == "x-ca-key,x-ca-nonce,x-ca-stage,x-ca-timestamp,x-ca-version")
        #expect(headers["x-ca-nonce"]?.count == 36 && headers["x-ca-nonce"] == first.request.msgid && first.request.msgid != second.request.msgid)
        #expect(try ParsedJSON.parse(first.request.body)["token"] == .string("tok"))
        let verify = try UmengProvider().verify(app: Self.app, token: "tok", phoneNumber: "13900001234", context: Self.context)
        #expect(verify.request.path == "/api/v1/mobile/verify?appkey=umengappkey01")
        #expect(try ParsedJSON.parse(verify.request.body)["phoneNumber"] == .string("13900001234"))
    }

    @Test("success: the number in clear, X-Ca-Request-Id the task id, billable")
    func success() throws {
        let call = try UmengProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(
            #"{"success": true, "code": 200, "message": "ok", "data": {"mobile": "13900001234"}}"#, headers: [("X-Ca-Request-Id", "3F2A-BC")]))
        #expect(try answer.result.get() == PhoneNumberOutcome(phoneNumber: "13900001234", carrierTaskId: "3F2A-BC"))
        #expect(answer.billable && answer.rawCode == "200" && answer.taskId == "3F2A-BC")
    }

    @Test("verify: PASS, REJECT, UNKNOWN in any case, booleans too", arguments: [
        (#""PASS""#, VerificationResult.match), (#""reject""#, .mismatch), (#""UNKNOWN""#, .unknown), ("true", .match), ("false", .mismatch),
    ])
    func verify(value: String, expected: VerificationResult) throws {
        let call = try UmengProvider().verify(app: Self.app, token: "tok", phoneNumber: "13900001234", context: Self.context)
        let answer = call.interpret(Self.reply(#"{"success": true, "code": 200, "data": {"verifyResult": \#(value)}}"#))
        #expect(try answer.result.get().result == expected)
    }

    @Test("gateway refusals: a 4xx with an empty body and X-Ca-Error-Message, mapped by its reason, the StringToSign never quoted", arguments: [
        ("Invalid Signature, Server StringToSign:`POST#application/json#`", 400, PassgateError.Code.signatureRejected, PassgateError.Action.fixConfig, false),
        ("Invalid AppKey", 400, .signatureRejected, .fixConfig, false), ("Invalid Timestamp", 400, .signatureRejected, .fixConfig, false),
        ("Nonce Used", 400, .signatureRejected, .fixConfig, false), ("Unauthorized", 403, .appNotEnabled, .fixConfig, false),
        ("Quota Exhausted", 403, .quotaExhausted, .contactProvider, false), ("Throttled by APP Flow Control", 403, .rateLimited, .retry, true),
        ("Some New Refusal", 400, .carrierRejected, .fixConfig, false),
    ])
    func gatewayRefusals(message: String, status: Int, expected: PassgateError.Code, action: PassgateError.Action, retryable: Bool) throws {
        let call = try UmengProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(CarrierHTTPReply(status: status, contentType: nil, body: [], headers: [("x-ca-error-message", message)]))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == expected && error.action == action && error.retryable == retryable && carrier.provider == "umeng", "\(error)")
        #expect(carrier.code == String(message.prefix { $0 != "," }) && !"\(error) \(error.message)".contains("StringToSign"))
        #expect(!answer.billable)
    }

    @Test("a business failure keeps its raw code, not retryable; code 200 without success is no success")
    func businessFailure() throws {
        let call = try UmengProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let failed = call.interpret(Self.reply(#"{"success": false, "code": 5001, "message": "token 13900001234 invalid"}"#))
        guard case .failure(let error) = failed.result, case .carrier(let carrier) = error.reason else { Issue.record("\(failed.result)"); return }
        #expect(error.code == .carrierError && !error.retryable && carrier.code == "5001" && carrier.message?.contains("13900001234") == false)
        let odd = call.interpret(Self.reply(#"{"success": false, "code": 200, "data": {"mobile": "13900001234"}}"#))
        #expect(odd.result.errorCode == .carrierBadResponse && !odd.billable)
    }

    @Test("a reply that is no answer is carrier_bad_response, without its content", arguments: [
        ("<html>502 Bad Gateway 13900001234</html>", 502), (#"{"success": true, "code": 200, "data": {"mobile": "1390000"#, 200),
        (#"{"success": true, "code": 200, "data": {}}"#, 200), (#"{"success": true, "code": 200, "data": {"mobile": "12345"}}"#, 200),
        (#"{"success": true, "code": 13900001234}"#, 200), ("", 403), (#"{"message": "no code"}"#, 500),
    ])
    func badReplies(body: String, status: Int) throws {
        let call = try UmengProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(body, status: status))
        guard case .failure(let error) = answer.result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse, "\(error)")
        #expect(!"\(error) \(error.message)".contains("13900001234"))
    }
}

extension Result where Failure == PassgateError {
    var errorCode: PassgateError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
