import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderGeetest
import Testing

/// Geetest's requests and replies: the notes' vectors (sign, AES-256-CBC number), the flow id and
/// millisecond timestamp in every call, `charge` as the billable flag, codes and bad replies.
@Suite("Geetest provider")
struct GeetestProviderTests {
    static let appId = "b4f2a7c3d1e0f9a8b7c6d5e4f3a2b1c0"
    static let appKey = "0123456789abcdef0123456789abcdef"
    static let app = GeetestApp(appId: appId, appKey: appKey)
    static let processId = "5b0d8e3c2a1f4e6d9c8b7a6f5e4d3c2b"
    static let clock = ManualClock(milliseconds: 1_764_396_000_000)

    static func context(_ fields: [String: String] = ["processId": processId]) throws -> CallContext {
        CallContext(clock: clock, requestId: "req-gt", providerFields: try ProviderFields(checking: fields, against: GeetestProvider().providerFields, provider: "geetest"))
    }

    static func reply(_ json: String, status: Int = 200, contentType: String = "application/json") -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: contentType, body: Array(json.utf8))
    }

    static func body(_ request: ProviderRequest) throws -> ParsedJSON { try ParsedJSON.parse(request.body) }

    @Test("sign: the notes' vector, HMAC-SHA256 over app_id&&timestamp in milliseconds")
    func signVector() throws {
        #expect(GeetestRequest.stringToSign(app: Self.app, timestamp: "1764396000000") == "\(Self.appId)&&1764396000000")
        #expect(try GeetestRequest.sign(app: Self.app, timestamp: "1764396000000") == "f8909f084592b2ec5eafec6e49f485a147727a0a8a8024d19f3d902c4ad9c44d")
    }

    @Test("the number: the notes' AES-256-CBC vector decrypts, cross-checked with openssl enc -aes-256-cbc")
    func numberVector() async throws {
        let iv = Array("0000000000000000".utf8)
        #expect(try MSISDN.decryptAESCBC("275011699374c890187e451b09e52aff", key: Array(Self.appKey.utf8), iv: iv) == "13800138000")
        let theirs = try await Subprocess.run(
            "/usr/bin/openssl", ["enc", "-e", "-aes-256-cbc", "-K", Hex.lowercase(Array(Self.appKey.utf8)), "-iv", Hex.lowercase(iv)],
            stdin: Array("13800138000".utf8))
        try #require(theirs.status == 0, "\(theirs.stderrText)")
        #expect(Hex.lowercase(theirs.stdout) == "275011699374c890187e451b09e52aff")
        // And a reply carrying openssl's ciphertext gives the number.
        let call = try GeetestProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context())
        let answer = call.interpret(Self.reply(#"{"status": 200, "result": "\#(Hex.lowercase(theirs.stdout))", "charge": true}"#))
        #expect(try answer.result.get().phoneNumber == "13800138000")
    }

    @Test("check_phone: process_id, token, timestamp in ms, sign, is_phone_encode; authcode only when sent")
    func checkPhone() throws {
        let call = try GeetestProvider().phoneNumber(app: Self.app, token: "tok-1", context: Self.context())
        let body = try Self.body(call.request)
        #expect(call.request.path == "/check_phone" && call.request.method == .post)
        #expect(body["process_id"]?.stringValue == Self.processId && body["token"]?.stringValue == "tok-1")
        #expect(body["timestamp"] == .string("1764396000000") && body["is_phone_encode"] == .bool(true) && body["authcode"] == nil)
        #expect(body["sign"]?.stringValue == "f8909f084592b2ec5eafec6e49f485a147727a0a8a8024d19f3d902c4ad9c44d")
        let telecom = try GeetestProvider().phoneNumber(app: Self.app, token: "tok-1", context: Self.context(["processId": Self.processId, "authcode": "ac-9"]))
        #expect(try Self.body(telecom.request)["authcode"]?.stringValue == "ac-9")
        let plain = try GeetestProvider().phoneNumber(app: GeetestApp(appId: Self.appId, appKey: "short", encryptNumber: false), token: "t", context: Self.context())
        #expect(try Self.body(plain.request)["is_phone_encode"] == nil)
    }

    @Test("a success decrypts the number; charge says what is billable")
    func success() throws {
        let call = try GeetestProvider().phoneNumber(app: Self.app, token: "tok-1", context: Self.context())
        let answer = call.interpret(Self.reply(#"{"status": 200, "result": "275011699374c890187e451b09e52aff", "error_msg": "", "charge": true}"#))
        #expect(try answer.result.get().phoneNumber == "13800138000" && answer.billable && answer.rawCode == "200")
        let free = call.interpret(Self.reply(#"{"status": 200, "result": "275011699374c890187e451b09e52aff", "charge": false, "riskflag": 0}"#))
        #expect(try free.result.get().phoneNumber == "13800138000" && !free.billable)
        let plainApp = GeetestApp(appId: Self.appId, appKey: Self.appKey, encryptNumber: false)
        let plain = try GeetestProvider().phoneNumber(app: plainApp, token: "t", context: Self.context())
        #expect(try plain.interpret(Self.reply(#"{"status": 200, "result": "13900001234"}"#)).result.get().phoneNumber == "13900001234")
    }

    @Test("check_gateway: accesscode and phone with the same sign; result 0 is a match, 1 a mismatch", arguments: [("0", VerificationResult.match), ("1", .mismatch)])
    func verify(raw: String, expected: VerificationResult) throws {
        let call = try GeetestProvider().verify(app: Self.app, token: "code-1", phoneNumber: "13900001234", context: Self.context())
        let body = try Self.body(call.request)
        #expect(call.request.path == "/v2.0/check_gateway")
        #expect(body["accesscode"]?.stringValue == "code-1" && body["phone"]?.stringValue == "13900001234" && body["token"] == nil)
        #expect(body["sign"]?.stringValue == "f8909f084592b2ec5eafec6e49f485a147727a0a8a8024d19f3d902c4ad9c44d")
        let answer = call.interpret(Self.reply(#"{"status": 200, "result": "\#(raw)"}"#))
        #expect(try answer.result.get().result == expected && answer.billable)
    }

    @Test("every documented status maps with its raw code; an unknown one stays raw and not retryable", arguments: [
        ("500", PassgateError.Code.carrierError, PassgateError.Action.newToken), ("12005", .signatureRejected, .fixConfig),
        ("12007", .ipNotWhitelisted, .fixConfig), ("12100", .tokenInvalid, .newToken), ("12101", .tokenInvalid, .newToken),
        ("12104", .quotaExhausted, .contactProvider), ("12105", .signatureRejected, .fixConfig), ("12109", .signatureRejected, .fixConfig),
        ("12108", .tokenInvalid, .newToken), ("12200", .tokenInvalid, .newToken), ("2005", .signatureRejected, .fixConfig),
        ("2104", .signatureRejected, .fixConfig), ("3105", .tokenInvalid, .newToken), ("99999", .carrierError, .contactProvider),
    ])
    func codes(status: String, expected: PassgateError.Code, action: PassgateError.Action) throws {
        let call = try GeetestProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context())
        let answer = call.interpret(Self.reply(#"{"status": \#(status), "error_msg": "refused 13900001234", "charge": false}"#))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == expected && error.action == action && !error.retryable && carrier.provider == "geetest" && carrier.code == status)
        #expect(carrier.message?.contains("13900001234") == false && !answer.billable)
    }

    @Test("a reply that is no answer, or a number that does not decrypt, fails without its content", arguments: [
        ("<html>502 Bad Gateway 13900001234</html>", 502), (#"{"status": 200, "result": "2750116993"#, 200), (#"{"status": 200}"#, 200),
        (#"{"status": 200, "result": "13900001234"}"#, 200), (#"{"status": 200, "result": "00112233445566778899aabbccddeeff"}"#, 200),
        (#"{"status": "13900001234"}"#, 200), (#"{"error_msg": "no status"}"#, 500), ("", 200),
    ])
    func badReplies(body: String, status: Int) throws {
        let call = try GeetestProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context())
        let answer = call.interpret(Self.reply(body, status: status))
        guard case .failure(let error) = answer.result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse || error.code == .msisdnDecryptFailed, "\(error)")
        #expect(!"\(error) \(error.message)".contains("13900001234"))
    }

    @Test("providerFields: processId required, both single use; the replay key covers them")
    func fields() throws {
        let declared = GeetestProvider().providerFields
        #expect(declared.map(\.name) == ["processId", "authcode"] && declared.allSatisfy(\.singleUse))
        #expect(declared.first { $0.name == "processId" }?.required == true && declared.first { $0.name == "authcode" }?.required == false)
        #expect(throws: PassgateError.self) { try Self.context([:]) }
        #expect(throws: PassgateError.self) { try Self.context(["processId": "has space"]) }
    }
}
