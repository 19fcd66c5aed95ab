import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderAliyun
import Testing

/// Alibaba Cloud's RPC requests and replies: the signature of the documented rules, a fresh nonce
/// and UTC timestamp per call, business and gateway answers.
@Suite("Alibaba Cloud provider")
struct AliyunProviderTests {
    static let app = AliyunApp(appId: "ali-shop", accessKeyId: "testid", accessKeySecret: "testsecret")
    static let clock = ManualClock(milliseconds: 1_704_110_400_000)  // 2024-01-01T12:00:00Z
    static var context: CallContext { CallContext(clock: clock, requestId: "req-0001") }

    static func reply(_ json: String, status: Int = 200, contentType: String = "application/json;charset=utf-8") -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: contentType, body: Array(json.utf8))
    }

    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding! }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    @Test("the signature of the documented vector (HMAC-SHA1, SignatureVersion 1.0, POST)")
    func signatureVector() throws {
        let request = try AliyunRequest(
            app: AliyunApp(appId: "ali-shop", accessKeyId: "testid", accessKeySecret: "testsecret"), token: "Dfafdafad5422abc", outId: "22345",
            nonce: "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf", timestamp: "2024-01-01T12:00:00Z")
        #expect(request.signature == "8QhUIVSXyKvK3ldbve6bD7MhPUQ=")
        #expect(request.stringToSign.hasPrefix("POST&%2F&AccessKeyId%3Dtestid%26AccessToken%3DDfafdafad5422abc%26Action%3DGetMobile"))
        #expect(request.stringToSign.contains("Timestamp%3D2024-01-01T12%253A00%253A00Z"))
        #expect(AliyunRequest.percentEncoded("a b*c~") == "a%20b%2Ac~")
    }

    @Test("GetMobile: every common parameter, a fresh nonce per call, UTC time; the number in clear; RequestId is the task id")
    func getMobile() throws {
        let first = try AliyunProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let second = try AliyunProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let fields = Self.form(first.request.body)
        #expect(first.request.path == "/" && first.request.method == .post)
        #expect(fields["Action"] == "GetMobile" && fields["AccessToken"] == "tok" && fields["Format"] == "JSON" && fields["Version"] == "2017-05-25")
        #expect(fields["SignatureMethod"] == "HMAC-SHA1" && fields["SignatureVersion"] == "1.0" && fields["Timestamp"] == "2024-01-01T12:00:00Z")
        #expect(fields["OutId"] == "req-0001" && fields["RegionId"] == "cn-hangzhou" && fields["AccessKeyId"] == "testid")
        #expect(fields["SignatureNonce"] != Self.form(second.request.body)["SignatureNonce"] && first.request.msgid == fields["SignatureNonce"])
        // The signature covers what was sent: recompute it from the body.
        let sorted = fields.filter { $0.key != "Signature" }.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        let mac = try Digest.hmacSHA1(key: Array("testsecret&".utf8), data: Array(AliyunRequest.stringToSign(method: "POST", sorted).utf8))
        #expect(fields["Signature"] == Data(mac).base64EncodedString())

        let answer = first.interpret(Self.reply(#"{"Code": "OK", "Message": "请求成功", "RequestId": "8906582E-6722", "GetMobileResultDTO": {"Mobile": "13900001234"}}"#))
        #expect(try answer.result.get() == PhoneNumberOutcome(phoneNumber: "13900001234", carrierTaskId: "8906582E-6722"))
        #expect(answer.billable && answer.rawCode == "OK")
    }

    @Test("VerifyMobile: AccessCode and PhoneNumber; PASS, REJECT and UNKNOWN", arguments: [("PASS", VerificationResult.match), ("REJECT", .mismatch), ("UNKNOWN", .unknown)])
    func verifyMobile(answer raw: String, expected: VerificationResult) throws {
        let call = try AliyunProvider().verify(app: Self.app, token: "code-1", phoneNumber: "13900001234", context: Self.context)
        let fields = Self.form(call.request.body)
        #expect(fields["Action"] == "VerifyMobile" && fields["AccessCode"] == "code-1" && fields["PhoneNumber"] == "13900001234" && fields["AccessToken"] == nil)
        let answer = call.interpret(Self.reply(#"{"Code": "OK", "RequestId": "R1", "GateVerifyResultDTO": {"VerifyResult": "\#(raw)", "VerifyId": "V1"}}"#))
        #expect(try answer.result.get().result == expected)
    }

    @Test("business and gateway errors map with their raw code, gateway ones whatever their 4xx status", arguments: [
        ("isv.TOKEN_INVALID", 200, PassgateError.Code.tokenInvalid, false),
        ("isv.TOKEN_UNAUTHORIZED_USED", 200, .tokenWrongProduct, false),
        ("isv.OUT_OF_SERVICE", 200, .quotaExhausted, false),
        ("SignatureDoesNotMatch", 400, .signatureRejected, false),
        ("InvalidAccessKeyId.NotFound", 404, .signatureRejected, false),
        ("InvalidTimeStamp.Expired", 400, .signatureRejected, false),
        ("SignatureNonceUsed", 400, .rateLimited, true),
        ("Throttling.User", 403, .rateLimited, true),
        ("MissingAccessToken", 400, .carrierRejected, false),
        ("isv.SOMETHING_NEW", 200, .carrierError, false),
    ])
    func errors(code: String, status: Int, expected: PassgateError.Code, retryable: Bool) throws {
        let call = try AliyunProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let body = #"{"RequestId": "R-9", "HostId": "dypnsapi.aliyuncs.com", "Code": "\#(code)", "Message": "refused for 13900001234", "Recommend": "https://api.aliyun.com"}"#
        let answer = call.interpret(Self.reply(body, status: status))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == expected && error.retryable == retryable && carrier.provider == "aliyun" && carrier.code == code)
        #expect(carrier.message?.contains("13900001234") == false && !answer.billable)
    }

    @Test("a reply that is no answer is carrier_bad_response, without its content", arguments: [
        ("<html>502 Bad Gateway 13900001234</html>", 502), (#"{"Code": "OK", "GetMobileResultDTO": {"Mobile": "1390000"#, 200),
        (#"{"Code": "OK"}"#, 200), (#"{"Code": "OK", "GetMobileResultDTO": {"Mobile": "12345"}}"#, 200),
        (#"{"Code": "13900001234"}"#, 200), (#"{"Message": "no code"}"#, 500),
    ])
    func badReplies(body: String, status: Int) throws {
        let call = try AliyunProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context)
        let answer = call.interpret(Self.reply(body, status: status))
        guard case .failure(let error) = answer.result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse, "\(error)")
        #expect(!"\(error) \(error.message)".contains("13900001234"))
    }
}
