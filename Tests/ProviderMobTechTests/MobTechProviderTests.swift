import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderMobTech
import Testing

/// MobTech's requests and replies: the notes' sign and DES vectors, the SDK values a call needs,
/// the code table, and replies that are no answer.
@Suite("MobTech provider")
struct MobTechProviderTests {
    static let app = MobTechApp(appId: "moba1b2c3", appSecret: "mobAppSecret0001xyz")
    static let clock = ManualClock(milliseconds: 1_764_396_000_000)
    static let fields = ["opToken": "optok456", "operator": "CMCC"]
    /// The notes' computed DES vector: `{"isValid":1,"phone":"13800138000","valid":true}` under the secret above.
    static let res = "4jXA3pENgJ6wqXjrH1KJKU4dI6Qnvt35GCnbjnRrNAB3UQX0ARU1ceW9Lxntzck/iqXhuoN4RN0="

    static func context(_ fields: [String: String] = fields) throws -> CallContext {
        CallContext(
            clock: clock, requestId: "req-mob",
            providerFields: try ProviderFields(checking: fields, against: MobTechProvider().providerFields, provider: "mobtech"))
    }

    static func reply(_ json: String, status: Int = 200) -> CarrierHTTPReply {
        CarrierHTTPReply(status: status, contentType: "application/json;charset=UTF-8", body: Array(json.utf8))
    }

    @Test("the sign of the notes' vector: MD5 of the sorted k=v pairs with the AppSecret appended, no '&'")
    func signVector() throws {
        let request = try MobTechRequest(
            app: Self.app, token: "mobtoken123", opToken: "optok456", operator: "CMCC", md5: nil, timestamp: 1_764_396_000_000, msgid: "m")
        #expect(MobTechRequest.canonical(request.fields) == "appkey=moba1b2c3&opToken=optok456&operator=CMCC&timestamp=1764396000000&token=mobtoken123")
        #expect(request.sign == "9f776f96829e54aa7101380b3298cc0a")
    }

    @Test("the request: a JSON POST with the appkey header, the timestamp a number of ms from the call's clock, md5 signed when sent")
    func request() throws {
        let call = try MobTechProvider().phoneNumber(app: Self.app, token: "mobtoken123", context: Self.context())
        #expect(call.request.path == "/auth/auth/sdkClientFreeLogin" && call.request.method == .post && call.request.msgid == "req-mob")
        #expect(call.request.headers.contains { $0.name == "appkey" && $0.value == "moba1b2c3" })
        let body = try ParsedJSON.parse(call.request.body)
        #expect(body["timestamp"] == .number("1764396000000") && body["sign"] == .string("9f776f96829e54aa7101380b3298cc0a"))
        #expect(body["token"] == .string("mobtoken123") && body["opToken"] == .string("optok456") && body["operator"] == .string("CMCC"))
        let md5 = String(repeating: "ab", count: 16)
        let signed = try MobTechProvider().phoneNumber(app: Self.app, token: "mobtoken123", context: Self.context(Self.fields.merging(["md5": md5]) { $1 }))
        let withMD5 = try ParsedJSON.parse(signed.request.body)
        let expected = try Digest.md5(Array("appkey=moba1b2c3&md5=\(md5)&opToken=optok456&operator=CMCC&timestamp=1764396000000&token=mobtoken123mobAppSecret0001xyz".utf8))
        #expect(withMD5["md5"] == .string(md5) && withMD5["sign"] == .string(Hex.lowercase(expected)))
    }

    @Test("the declared providerFields: opToken single-use and required, operator required, md5 optional")
    func declaredFields() throws {
        let declared = Dictionary(uniqueKeysWithValues: MobTechProvider().providerFields.map { ($0.name, $0) })
        #expect(declared["opToken"]?.required == true && declared["opToken"]?.singleUse == true)
        #expect(declared["operator"]?.required == true && declared["operator"]?.singleUse == false)
        #expect(declared["md5"]?.required == false && declared["md5"]?.accepts(String(repeating: "0", count: 32)) == true)
        #expect(try Self.context().providerFields.singleUse.map(\.name) == ["opToken"])
        #expect(throws: PassgateError.self) { try Self.context(["operator": "CMCC"]) }
    }

    @Test("an operator that is not CMCC, CUCC or CTCC is refused before any call, naming the field")
    func unknownOperator() throws {
        #expect { try MobTechProvider().phoneNumber(app: Self.app, token: "t", context: Self.context(["opToken": "o", "operator": "CMCX"])) } throws: { error in
            (error as? PassgateError).map { $0.code == .invalidRequest && $0.message.contains("providerFields.operator") } ?? false
        }
    }

    @Test("status 200: res decrypted with DES under the AppSecret's first 8 bytes; seqid is the task id; billable")
    func success() throws {
        let call = try MobTechProvider().phoneNumber(app: Self.app, token: "mobtoken123", context: Self.context())
        let answer = call.interpret(Self.reply(#"{"status": 200, "res": "\#(Self.res)", "seqid": "seq-1", "error": null}"#))
        #expect(try answer.result.get() == PhoneNumberOutcome(phoneNumber: "13800138000", carrierTaskId: "seq-1"))
        #expect(answer.billable && answer.rawCode == "200" && answer.taskId == "seq-1")
    }

    @Test("a res that openssl enc -des-cbc (legacy provider) encrypted is decrypted")
    func opensslCiphertextDecrypts() async throws {
        let encrypted = try await Subprocess.run(
            "/usr/bin/openssl",
            ["enc", "-des-cbc", "-provider", "legacy", "-provider", "default", "-K", Hex.lowercase(Array("mobAppSe".utf8)),
             "-iv", Hex.lowercase(Array("00000000".utf8)), "-base64", "-A"],
            stdin: Array(#"{"isValid":1,"phone":"13912345678","valid":true}"#.utf8))
        try #require(encrypted.status == 0, "\(encrypted.stderrText)")
        let res = String(decoding: encrypted.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let call = try MobTechProvider().phoneNumber(app: Self.app, token: "t", context: Self.context())
        #expect(try call.interpret(Self.reply(#"{"status": 200, "res": "\#(res)"}"#)).result.get().phoneNumber == "13912345678")
    }

    @Test("another AppSecret, a non-base64 res or a plain number is msisdn_decrypt_failed without the number", arguments: [
        "otherSecret-abc", "mobAppSecret0001xyz",
    ])
    func decryptFailures(secret: String) throws {
        let app = MobTechApp(appId: "moba1b2c3", appSecret: secret)
        let call = try MobTechProvider().phoneNumber(app: app, token: "t", context: Self.context())
        let bodies = secret == "mobAppSecret0001xyz" ? [#"{"status": 200, "res": "13800138000"}"#, #"{"status": 200, "res": "not base64!"}"#]
            : [#"{"status": 200, "res": "\#(Self.res)"}"#]
        for body in bodies {
            guard case .failure(let error) = call.interpret(Self.reply(body)).result else { Issue.record("accepted \(body)"); continue }
            #expect(error.code == .msisdnDecryptFailed, "\(error)")
            #expect(!"\(error) \(error.message)".contains("13800138000"))
        }
    }

    @Test("MobTech's codes map with their raw code; an unknown one keeps it, not retryable", arguments: [
        ("4119342", PassgateError.Code.signatureRejected, PassgateError.Action.fixConfig),
        ("4119343", .signatureRejected, .fixConfig), ("4119331", .signatureRejected, .fixConfig),
        ("4119310", .tokenInvalid, .newToken), ("4119311", .tokenInvalid, .newToken), ("5119104", .tokenInvalid, .newToken),
        ("5119341", .quotaExhausted, .contactProvider), ("5119511", .rateLimited, .newToken), ("5119546", .rateLimited, .newToken),
        ("5119507", .carrierError, .newToken), ("5119509", .carrierError, .newToken), ("5119501", .carrierRejected, .newToken),
        ("4119521", .appNotEnabled, .fixConfig), ("5119601", .appNotEnabled, .contactProvider), ("5119999", .carrierError, .contactProvider),
    ])
    func codes(code: String, expected: PassgateError.Code, action: PassgateError.Action) throws {
        let call = try MobTechProvider().phoneNumber(app: Self.app, token: "t", context: Self.context())
        let answer = call.interpret(Self.reply(#"{"status": \#(code), "res": null, "seqid": "s-2", "error": "refused 13900001234"}"#))
        guard case .failure(let error) = answer.result, case .carrier(let carrier) = error.reason else { Issue.record("\(answer.result)"); return }
        #expect(error.code == expected && error.action == action && !error.retryable && carrier.provider == "mobtech" && carrier.code == code)
        #expect(carrier.message?.contains("13900001234") == false && !answer.billable && answer.taskId == "s-2")
    }

    @Test("a reply that is no answer is carrier_bad_response, without its content", arguments: [
        ("<html>502 Bad Gateway 13900001234</html>", 502), (#"{"status": 200, "res": "4jXA3pENgJ6w"#, 200), (#"{"status": 200}"#, 200),
        (#"{"status": 13900001234}"#, 200), (#"{"status": "1390000"}"#, 200), (#"{"error": "no status"}"#, 500), ("", 200),
    ])
    func badReplies(body: String, status: Int) throws {
        let call = try MobTechProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context())
        let answer = call.interpret(Self.reply(body, status: status))
        guard case .failure(let error) = answer.result else { Issue.record("accepted \(body)"); return }
        #expect(error.code == .carrierBadResponse, "\(error)")
        #expect(!"\(error) \(error.message)".contains("13900001234"))
    }

    @Test("a decrypted answer that says the number is not valid is a bad reply, never a number")
    func invalidAnswer() throws {
        let des = try DESCBC.shared.get()
        let plain = Array(#"{"isValid":0,"phone":"","valid":false}"#.utf8)
        let res = Data(try des.encrypt(plain, key: Array("mobAppSe".utf8), iv: Array("00000000".utf8))).base64EncodedString()
        let call = try MobTechProvider().phoneNumber(app: Self.app, token: "tok", context: Self.context())
        guard case .failure(let error) = call.interpret(Self.reply(#"{"status": 200, "res": "\#(res)"}"#)).result else { Issue.record("accepted"); return }
        #expect(error.code == .carrierBadResponse)
    }

    @Test("no number verification: verify is app_not_enabled before any call")
    func noVerify() throws {
        #expect { try MobTechProvider().verify(app: Self.app, token: "t", phoneNumber: "13800138000", context: Self.context()) } throws: { error in
            (error as? PassgateError)?.code == .appNotEnabled
        }
    }
}
