import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderGetui
import Testing

/// Getui's requests and replies: the notes' vectors (sign, AES-128-CBC number), gyuid and the
/// millisecond timestamp in the body, codes, bad replies, and no verification.
@Suite("Getui provider")
struct GetuiProviderTests {
    static let app = GetuiApp(appId: "gt-app-0001", appSecret: "gtAppSecret01", masterSecret: "gtMasterSecret0123456789")
    static let clock = ManualClock(milliseconds: 1_764_396_000_000)

    static func context(_ fields: [String: String] = ["gyuid": "gyuid0123abcdef"]) throws -> CallContext {
        CallContext(clock: clock, requestId: "req-gy", providerFields: try ProviderFields(checking: fields, against: GetuiProvider().providerFields, provider: "getui"))
    }

    static func reply(_ json: String, status: Int = 200) -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: "application/json", body: Array(json.utf8))
    }

    @Test("sign: the notes' vector, SHA-256 of appSecret + timestamp (ms) + masterSecret")
    func signVector() throws {
        #expect(try GetuiRequest.sign(app: Self.app, timestamp: 1_764_396_000_000) == "74493b90c3bed1bde1daf2b4c462929fe788743aff3ec90813e426fd65521524")
    }

    @Test("the number: the notes' AES-128-CBC vector decrypts, cross-checked with openssl enc -aes-128-cbc")
    func numberVector() async throws {
        let iv = Array("0000000000000000".utf8)
        #expect(Self.app.numberKey == Array("gtMasterSecret01".utf8))
        #expect(try MSISDN.decryptAESCBC("40db45052788191a166cb367b7c1f3d2", key: Self.app.numberKey, iv: iv) == "13800138000")
        let theirs = try await Subprocess.run(
            "/usr/bin/openssl", ["enc", "-e", "-aes-128-cbc", "-K", Hex.lowercase(Self.app.numberKey), "-iv", Hex.lowercase(iv)], stdin: Array("13800138000".utf8))
        try #require(theirs.status == 0, "\(theirs.stderrText)")
        #expect(Hex.lowercase(theirs.stdout) == "40db45052788191a166cb367b7c1f3d2")
    }

    @Test("gy_get_pn: appId, gyuid, token, timestamp in ms, sign; a success decrypts pn and is billable")
    func request() throws {
        let call = try GetuiProvider().phoneNumber(app: Self.app, token: "tok-1", context: Self.context())
        let body = try ParsedJSON.parse(call.request.body)
        #expect(call.request.path == "/v2/gy/ct_login/gy_get_pn" && call.request.method == .post)
        #expect(body["appId"]?.stringValue == "gt-app-0001" && body["gyuid"]?.stringValue == "gyuid0123abcdef" && body["token"]?.stringValue == "tok-1")
        #expect(body["timestamp"] == .number("1764396000000"))
        #expect(body["sign"]?.stringValue == "74493b90c3bed1bde1daf2b4c462929fe788743aff3ec90813e426fd65521524")
        let answer = call.interpret(Self.reply(#"{"errno": 0, "data": {"result": "20000", "msg": "ok", "data": {"pn": "40db45052788191a166cb367b7c1f3d2"}}}"#))
        #expect(try answer.result.get().phoneNumber == "13800138000" && answer.billable && answer.rawCode == "20000")
    }

    @Test("every documented code maps with its raw code; an unknown one, or a bare errno, stays raw and not retryable", arguments: [
        (#"{"errno": 0, "data": {"result": "40004", "msg": "app not found"}}"#, "40004", PassgateError.Code.appNotEnabled, false),
        (#"{"errno": 0, "data": {"result": "40031", "msg": "ip"}}"#, "40031", .ipNotWhitelisted, false),
        (#"{"errno": 0, "data": {"result": 40032, "msg": "param"}}"#, "40032", .carrierRejected, false),
        (#"{"errno": 0, "data": {"result": "60002", "msg": "fast"}}"#, "60002", .rateLimited, true),
        (#"{"errno": 0, "data": {"result": "60008", "msg": "sign 13900001234"}}"#, "60008", .signatureRejected, false),
        (#"{"errno": 0, "data": {"result": "40040", "msg": "?"}}"#, "40040", .carrierError, false),
        (#"{"errno": 500, "msg": "server"}"#, "500", .carrierError, false),
    ])
    func codes(body: String, code: String, expected: PassgateError.Code, retryable: Bool) throws {
        let answer = try GetuiProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context()).interpret(Self.reply(body))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == expected && error.retryable == retryable && carrier.provider == "getui" && carrier.code == code && !answer.billable)
        #expect(carrier.message?.contains("13900001234") == false)
    }

    @Test("a reply that is no answer, or a number that does not decrypt, fails without its content", arguments: [
        ("<html>502 13900001234</html>", 502), (#"{"errno": 0, "data": {"result": "20000", "data": {"pn": "40db4505"#, 200),
        (#"{"errno": 0, "data": {"result": "20000"}}"#, 200), (#"{"errno": 0}"#, 200),
        (#"{"errno": 0, "data": {"result": "20000", "data": {"pn": "13900001234"}}}"#, 200),
        (#"{"errno": 0, "data": {"result": "20000", "data": {"pn": "00112233445566778899aabbccddeeff"}}}"#, 200),
        (#"{"errno": "13900001234"}"#, 200),
    ])
    func badReplies(body: String, status: Int) throws {
        let answer = try GetuiProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context()).interpret(Self.reply(body, status: status))
        guard case .failure(let error) = answer.result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse || error.code == .msisdnDecryptFailed, "\(error)")
        #expect(!"\(error) \(error.message)".contains("13900001234"))
    }

    @Test("no number verification: refused before any call with app_not_enabled; gyuid required, not single use")
    func verifyAndFields() throws {
        #expect(throws: PassgateError.self) { try GetuiProvider().verify(app: Self.app, token: "t", phoneNumber: "13900001234", context: Self.context()) }
        let field = try #require(GetuiProvider().providerFields.first)
        #expect(field.name == "gyuid" && field.required && !field.singleUse && GetuiProvider().providerFields.count == 1)
        #expect(throws: PassgateError.self) { try Self.context([:]) }
    }

    @Test("the explanation never shows a secret")
    func explanation() throws {
        let call = try GetuiProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context())
        let explained = GetuiProvider().explain(ExplainedCall(operation: .phoneNumber, token: "tok", phoneNumber: nil, request: call.request), app: Self.app)
        let text = explained.details.map { "\($0.label): \($0.value)" }.joined(separator: "\n")
        #expect(!text.contains("gtAppSecret01") && !text.contains("gtMasterSecret") && text.contains("1764396000000"), "\(text)")
    }
}
