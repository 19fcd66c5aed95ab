import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderShanyan
import Testing

/// Shanyan's requests and replies: the form body and its signature, the number's two encryptions,
/// the billing flag, and codes without a published table.
@Suite("Shanyan provider")
struct ShanyanProviderTests {
    static let app = ShanyanApp(appId: "abcd1234", appKey: "shanyanAppKey123")
    static let context = CallContext(requestId: "req-0001")

    static func reply(_ json: String, status: Int = 200, contentType: String = "application/json") -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: contentType, body: Array(json.utf8))
    }

    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding! }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    @Test("sign: HMAC-SHA256 under the appKey over name+value of the sorted fields, the documented vector; upper case on request")
    func signVector() throws {
        let request = try ShanyanRequest(app: Self.app, token: "A2-xyz", outId: nil)
        #expect(request.signingInput == "appIdabcd1234tokenA2-xyz")
        #expect(request.fields.last?.value == "580629ea2f5153af96bf1353300aeae2f6c008c777a38c470d3b5fbfce4e4640")
        let upper = try ShanyanRequest(app: ShanyanApp(appId: "abcd1234", appKey: "shanyanAppKey123", signCase: .upper), token: "A2-xyz", outId: nil)
        #expect(upper.fields.last?.value == "580629EA2F5153AF96BF1353300AEAE2F6C008C777A38C470D3B5FBFCE4E4640")
    }

    @Test("the AES key and IV of the documented derivation, and a number encrypted by openssl enc decrypts")
    func aesDerivationVector() throws {
        let derived = try ShanyanProvider.aesKeyAndIV(appKey: "shanyanAppKey123")
        #expect(String(decoding: derived.key, as: UTF8.self) == "d6d28ac0ee5ef8bc" && String(decoding: derived.iv, as: UTF8.self) == "dfa7a999ef53d8da")
        // printf 13900001234 | openssl enc -aes-128-cbc -K <hex of the key> -iv <hex of the IV> | xxd -p
        let call = try ShanyanProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(#"{"code": "200000", "message": "ok", "chargeStatus": 1, "data": {"tradeNo": "T-1", "mobileName": "07186da582239722ab1efde384d86834"}}"#))
        #expect(try answer.result.get() == PhoneNumberOutcome(phoneNumber: "13900001234", carrierTaskId: "T-1"))
        #expect(answer.billable && answer.rawCode == "200000" && answer.taskId == "T-1")
    }

    @Test("login: a form POST to mobile-query with the fields it signs; RSA apps ask for encryptType 1 and decrypt with their key")
    func loginRequest() throws {
        let call = try ShanyanProvider().phoneNumber(app: Self.app, token: "tok+/=", context: Self.context)
        #expect(call.request.path == "/open/flashsdk/mobile-query" && call.request.msgid == "req-0001")
        #expect(call.request.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("application/x-www-form-urlencoded") })
        let fields = Self.form(call.request.body)
        #expect(fields["appId"] == "abcd1234" && fields["token"] == "tok+/=" && fields["outId"] == "req-0001" && fields["encryptType"] == nil)
        let mac = try Digest.hmacSHA256(key: Array("shanyanAppKey123".utf8), data: Array("appIdabcd1234outIdreq-0001tokentok+/=".utf8))
        #expect(fields["sign"] == Hex.lowercase(mac))

        let key = TestRSAKeys.primary1024
        let rsaApp = ShanyanApp(appId: "abcd1234", appKey: "shanyanAppKey123", privateKey: key)
        let rsa = try ShanyanProvider().phoneNumber(app: rsaApp, token: "tok", context: Self.context)
        #expect(Self.form(rsa.request.body)["encryptType"] == "1")
        let cipher = Hex.lowercase(try key.publicKey.encrypt(Array("13900001234".utf8)))
        let answer = rsa.interpret(Self.reply(#"{"code": "200000", "chargeStatus": 1, "data": {"tradeNo": "T", "mobileName": "\#(cipher)"}}"#))
        #expect(try answer.result.get().phoneNumber == "13900001234")
    }

    @Test("verification: mobile-validate with the number; isVerify 1 is a match, 0 a mismatch; chargeStatus decides billing")
    func verify() throws {
        let call = try ShanyanProvider().verify(app: Self.app, token: "tok", phoneNumber: "13900001234", context: Self.context)
        #expect(call.request.path == "/open/flashsdk/mobile-validate" && Self.form(call.request.body)["mobile"] == "13900001234")
        let match = call.interpret(Self.reply(#"{"code": "200000", "chargeStatus": 1, "data": {"isVerify": "1", "tradeNo": "T9"}}"#))
        #expect(try match.result.get() == VerificationOutcome(result: .match, carrierTaskId: "T9") && match.billable)
        let mismatch = call.interpret(Self.reply(#"{"code": 200000, "chargeStatus": 0, "data": {"isVerify": 0}}"#))
        #expect(try mismatch.result.get().result == .mismatch && !mismatch.billable)
        #expect(call.interpret(Self.reply(#"{"code": "200000", "data": {"isVerify": "2"}}"#)).result.failureCode == .carrierBadResponse)
    }

    @Test("a code other than 200000 is carrier_error with Shanyan's raw code and redacted message, never a guessed meaning")
    func unknownCodes() throws {
        let call = try ShanyanProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(#"{"code": "400001", "message": "token 13900001234 invalid", "chargeStatus": 0}"#, status: 400))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == .carrierError && !error.retryable && error.action == .contactProvider)
        #expect(carrier.provider == "shanyan" && carrier.code == "400001" && carrier.message?.contains("13900001234") == false)
        #expect(!answer.billable)
    }

    @Test("a wrong appKey or a mangled number is msisdn_decrypt_failed; a reply without an answer is carrier_bad_response", arguments: [
        (#"{"code": "200000", "chargeStatus": 1, "data": {"mobileName": "00112233445566778899aabbccddeeff"}}"#, PassgateError.Code.msisdnDecryptFailed),
        (#"{"code": "200000", "chargeStatus": 1, "data": {"mobileName": "13900001234"}}"#, .msisdnDecryptFailed),
        (#"{"code": "200000", "chargeStatus": 1, "data": {}}"#, .carrierBadResponse),
        (#"{"code": "200000", "data": "x"}"#, .carrierBadResponse),
        (#"{"message": "no code"}"#, .carrierBadResponse),
        (#"<html>503</html>"#, .carrierBadResponse),
        (#"{"code": "200000", "data": {"mobileName": "0718"#, .carrierBadResponse),
    ])
    func failures(body: String, expected: PassgateError.Code) throws {
        let call = try ShanyanProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(body))
        #expect(answer.result.failureCode == expected, "\(answer.result)")
        if case .failure(let error) = answer.result { #expect(!"\(error) \(error.message)".contains("13900001234")) }
    }
}

extension Result where Failure == PassgateError {
    var failureCode: PassgateError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
