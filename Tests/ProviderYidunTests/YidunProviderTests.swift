import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderYidun
import Testing

/// NetEase Yidun's requests and replies: the MD5 signature of the notes' vector, a fresh nonce and
/// millisecond timestamp per call, both tokens sent, answers and refusals mapped.
@Suite("NetEase Yidun provider")
struct YidunProviderTests {
    static let app = YidunApp(appId: "yd-shop", businessId: "bizid0001", secretId: "sid0001", secretKey: "yidunSecretKey0001")
    static let clock = ManualClock(milliseconds: 1_764_396_000_000)
    static func context(accessToken: String = "CMCCtoken-abc") throws -> CallContext {
        CallContext(clock: clock, requestId: "req-0001", providerFields: try ProviderFields(
            checking: ["accessToken": accessToken], against: YidunProvider().providerFields, provider: "yidun"))
    }

    static func reply(_ json: String, status: Int = 200) -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: "application/json;charset=UTF-8", body: Array(json.utf8))
    }

    static func form(_ body: [UInt8]) -> [String: String] {
        Dictionary(PercentEncoding.formFields(body)!.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    @Test("the signature of the notes' vector: MD5 over sorted name+value pairs, then the secret key")
    func signatureVector() throws {
        let request = try YidunRequest(
            app: Self.app, token: "yidun-token-0123456789abcdef0123", accessToken: "CMCCtoken-abc", nonce: String(repeating: "n", count: 32),
            timestamp: "1764396000000")
        #expect(request.signature == "1142119ea78f23d10f8b941b611733f3")
        #expect(YidunRequest.stringToSign(request.fields).hasPrefix("accessTokenCMCCtoken-abcbusinessIdbizid0001nonce"))
        #expect(request.path == "/v1/oneclick/check")
    }

    @Test("the phone-number call: every field, a fresh 32-character nonce, a millisecond timestamp; the number in clear")
    func phoneNumber() throws {
        let first = try YidunProvider().phoneNumber(app: Self.app, token: "yd-token", context: try Self.context())
        let second = try YidunProvider().phoneNumber(app: Self.app, token: "yd-token", context: try Self.context())
        let fields = Self.form(first.request.body)
        #expect(first.request.path == "/v1/oneclick/check" && first.request.method == .post)
        #expect(fields["token"] == "yd-token" && fields["accessToken"] == "CMCCtoken-abc" && fields["businessId"] == "bizid0001")
        #expect(fields["secretId"] == "sid0001" && fields["version"] == "v1" && fields["timestamp"] == "1764396000000")
        #expect(fields["nonce"]?.utf8.count == 32 && fields["nonce"] != Self.form(second.request.body)["nonce"] && first.request.msgid == fields["nonce"])
        #expect(fields["secretKey"] == nil && !String(decoding: first.request.body, as: UTF8.self).contains("yidunSecretKey0001"))
        // The signature covers what was sent: recompute it from the body.
        let signed = YidunRequest.sorted(fields.filter { $0.key != "signature" }.map { (name: $0.key, value: $0.value) })
        #expect(fields["signature"] == Hex.lowercase(try Digest.md5(Array((YidunRequest.stringToSign(signed) + "yidunSecretKey0001").utf8))))

        let answer = first.interpret(Self.reply(#"{"code": 200, "msg": "ok", "data": {"phone": "13900001234", "resultCode": "0"}}"#))
        #expect(try answer.result.get().phoneNumber == "13900001234")
        #expect(answer.billable && answer.rawCode == "200")
    }

    @Test("a 200 answer without a number is the carrier's refusal: carrier_error, fallback_sms, its resultCode in the message, not billed")
    func noNumber() throws {
        let call = try YidunProvider().phoneNumber(app: Self.app, token: "yd-token", context: try Self.context())
        let answer = call.interpret(Self.reply(#"{"code": 200, "msg": "ok", "data": {"phone": "", "resultCode": "103111"}}"#))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == .carrierError && error.action == .fallbackSMS && !error.retryable && !answer.billable)
        #expect(carrier.code == "200" && carrier.message?.contains("103111") == true)
    }

    @Test("verification: /v1/check with the phone; result 1, 2 and 3", arguments: [("1", VerificationResult.match), ("2", .mismatch), ("3", .unknown)])
    func verify(raw: String, expected: VerificationResult) throws {
        let call = try YidunProvider().verify(app: Self.app, token: "yd-token", phoneNumber: "13900001234", context: try Self.context())
        let fields = Self.form(call.request.body)
        #expect(call.request.path == "/v1/check" && fields["phone"] == "13900001234")
        let answer = call.interpret(Self.reply(#"{"code": 200, "msg": "ok", "data": {"result": \#(raw)}}"#))
        #expect(try answer.result.get().result == expected)
        #expect(answer.billable == (expected != .unknown))
    }

    @Test("Yidun's codes map with the raw code kept; unknown codes are carrier_error, not retryable", arguments: [
        ("400", PassgateError.Code.carrierRejected, PassgateError.Action.contactProvider),
        ("401", .appNotEnabled, .fixConfig), ("405", .signatureRejected, .fixConfig), ("450", .tokenInvalid, .newToken),
        ("503", .carrierError, .contactProvider), ("499", .carrierError, .contactProvider),
    ])
    func errors(code: String, expected: PassgateError.Code, action: PassgateError.Action) throws {
        let call = try YidunProvider().phoneNumber(app: Self.app, token: "yd-token", context: try Self.context())
        let answer = call.interpret(Self.reply(#"{"code": \#(code), "msg": "refused for 13900001234", "data": null}"#, status: 200))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == expected && !error.retryable && carrier.provider == "yidun" && carrier.code == code)
        #expect(error.action == action)
        #expect(carrier.message?.contains("13900001234") == false && !answer.billable)
    }

    @Test("a reply that is no answer is carrier_bad_response, without its content", arguments: [
        ("<html>502 Bad Gateway 13900001234</html>", 502), (#"{"code": 200, "data": {"phone": "1390000"#, 200),
        (#"{"code": 200, "data": {"phone": "12345"}}"#, 200), (#"{"code": "13900001234"}"#, 200), (#"{"msg": "no code"}"#, 500),
        ("", 200), (#"[1, 2]"#, 200),
    ])
    func badReplies(body: String, status: Int) throws {
        let call = try YidunProvider().phoneNumber(app: Self.app, token: "yd-token", context: try Self.context())
        let answer = call.interpret(Self.reply(body, status: status))
        guard case .failure(let error) = answer.result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse, "\(error)")
        #expect(!"\(error) \(error.message)".contains("13900001234"))
    }

    @Test("a verification answer without a usable result is carrier_bad_response", arguments: [#"{"code": 200, "data": {}}"#, #"{"code": 200, "data": {"result": 7}}"#])
    func verifyWithoutResult(body: String) throws {
        let call = try YidunProvider().verify(app: Self.app, token: "yd-token", phoneNumber: "13900001234", context: try Self.context())
        guard case .failure(let error) = call.interpret(Self.reply(body)).result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse)
    }

    @Test("accessToken is declared required, single use, up to 2048 printable characters; a request without it is refused before any call")
    func declaration() throws {
        let field = try #require(YidunProvider().providerFields.first)
        #expect(YidunProvider().providerFields.count == 1 && field.name == "accessToken" && field.required && field.singleUse && field.maxLength == 2048)
        #expect(throws: PassgateError.self) {
            try YidunProvider().phoneNumber(app: Self.app, token: "yd-token", context: CallContext(clock: Self.clock, requestId: "r"))
        }
    }
}
