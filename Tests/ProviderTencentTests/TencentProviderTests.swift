import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderTencent
import Testing

/// Tencent Cloud's requests and replies: the plain SHA-256 sig of the notes' vector, a fresh
/// 10-digit random in the query and the time in seconds, raw codes kept.
@Suite("Tencent Cloud provider")
struct TencentProviderTests {
    static let app = TencentApp(appId: "1400123456", appKey: "tcAppKey0001")
    static let clock = ManualClock(milliseconds: 1_764_396_000_123)
    static func context(carrier: String? = nil) throws -> CallContext {
        CallContext(clock: clock, requestId: "req-0001", providerFields: try ProviderFields(
            checking: carrier.map { ["carrier": $0] } ?? [:], against: TencentProvider().providerFields, provider: "tencent"))
    }

    static func reply(_ json: String, status: Int = 200) -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: "application/json", body: Array(json.utf8))
    }

    static func query(_ path: String) -> [String: String] {
        Dictionary(path.split(separator: "?").last!.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }, uniquingKeysWith: { $1 })
    }

    @Test("the sig of the notes' vector: plain SHA-256 of appkey, random and time, not an HMAC")
    func sigVector() throws {
        #expect(try TencentRequest.sign(appKey: "tcAppKey0001", random: "1234567890", time: "1764396000")
            == "eff55952bafb849d462dbbee887d0c6bc0d2150623b31abebbb2eca5a755ab55")
        #expect(TencentRequest.stringToSign(appKey: "k", random: "1", time: "2") == "appkey=k&random=1&time=2")
    }

    @Test("the request: sdkappid and a fresh 10-digit random in the query, time in seconds, the sig over both; the number in clear")
    func request() throws {
        let first = try TencentProvider().phoneNumber(app: Self.app, token: "tc-token", context: try Self.context(carrier: "mobile"))
        let second = try TencentProvider().phoneNumber(app: Self.app, token: "tc-token", context: try Self.context())
        let query = Self.query(first.request.path)
        #expect(first.request.path.hasPrefix("/v5/rapidauth/validate?") && query["sdkappid"] == "1400123456")
        let random = try #require(query["random"])
        #expect(random.utf8.count == 10 && random.allSatisfy(\.isNumber) && random != Self.query(second.request.path)["random"])
        let body = try #require(try JSONSerialization.jsonObject(with: Data(first.request.body)) as? [String: String])
        #expect(body["time"] == "1764396000" && body["token"] == "tc-token" && body["carrier"] == "mobile")
        #expect(body["sig"] == Hex.lowercase(try Digest.sha256(Array("appkey=tcAppKey0001&random=\(random)&time=1764396000".utf8))))
        #expect(!String(decoding: second.request.body, as: UTF8.self).contains("carrier") && !first.request.path.contains("tcAppKey0001"))

        let answer = first.interpret(Self.reply(#"{"result": 0, "errmsg": "OK", "mobile": "13900001234"}"#))
        #expect(try answer.result.get().phoneNumber == "13900001234" && answer.billable && answer.rawCode == "0")
    }

    @Test("every non-zero result is carrier_error with the raw code and errmsg kept, not retryable", arguments: ["1001", "1005", "-1", "66666"])
    func rawCodes(code: String) throws {
        let call = try TencentProvider().phoneNumber(app: Self.app, token: "tc-token", context: try Self.context())
        let answer = call.interpret(Self.reply(#"{"result": \#(code), "errmsg": "token invalid for 13900001234"}"#))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == .carrierError && !error.retryable && error.action == .contactProvider && !answer.billable)
        #expect(carrier.provider == "tencent" && carrier.code == code && carrier.message?.contains("token invalid") == true)
        #expect(carrier.message?.contains("13900001234") == false)
    }

    @Test("a reply that is no answer is carrier_bad_response, without its content", arguments: [
        ("<html>502 13900001234</html>", 502), (#"{"result": 0, "mobile": "1390000"#, 200), (#"{"result": 0}"#, 200),
        (#"{"result": 0, "mobile": "12345"}"#, 200), (#"{"result": 13900001234}"#, 200), (#"{"errmsg": "x"}"#, 500), ("", 200),
    ])
    func badReplies(body: String, status: Int) throws {
        let call = try TencentProvider().phoneNumber(app: Self.app, token: "tc-token", context: try Self.context())
        guard case .failure(let error) = call.interpret(Self.reply(body, status: status)).result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse, "\(error)")
        #expect(!"\(error) \(error.message)".contains("13900001234"))
    }

    @Test("carrier is optional and not single use; a value other than mobile, unicom, telecom is refused naming it; no verification")
    func fieldsAndVerify() throws {
        let field = try #require(TencentProvider().providerFields.first)
        #expect(field.name == "carrier" && !field.required && !field.singleUse)
        let refused = #expect(throws: PassgateError.self) { try TencentProvider().phoneNumber(app: Self.app, token: "t", context: try Self.context(carrier: "mobiles")) }
        #expect(refused?.code == .invalidRequest)
        let verify = #expect(throws: PassgateError.self) {
            try TencentProvider().verify(app: Self.app, token: "t", phoneNumber: "13900001234", context: try Self.context())
        }
        #expect(verify?.code == .appNotEnabled)
    }
}
