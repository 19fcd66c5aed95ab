import PassgateCore
import Testing

/// A request's `providerFields` held to a provider's declaration (`ProviderFields(checking:…)`),
/// synchronously: what is accepted, what each refusal says, what the replay key gets.
@Suite("provider fields")
struct ProviderFieldsTests {
    static let declared = [
        ProviderField(name: "processId", required: true, minLength: 32, maxLength: 32, charset: .hexDigits, singleUse: true),
        ProviderField(name: "authcode", required: false, maxLength: 16, charset: .alphanumeric, singleUse: true),
        ProviderField(name: "carrier", required: false, maxLength: 8, charset: .alphanumeric(plus: "-_"), singleUse: false),
    ]
    static let processId = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    static let allBytes = (0...255).map { UInt8($0) }

    static func check(_ sent: [String: String]) throws(PassgateError) -> ProviderFields {
        try ProviderFields(checking: sent, against: declared, provider: "flow")
    }

    /// The refusal of `sent`, as (field, message).
    static func refusal(_ sent: [String: String], against declared: [ProviderField] = declared) -> (field: String?, message: String)? {
        do {
            _ = try ProviderFields(checking: sent, against: declared, provider: "flow")
            return nil
        } catch {
            guard error.code == .invalidRequest, case .request(let field, _) = error.reason else { return (nil, "\(error)") }
            return (field, error.message)
        }
    }

    @Test("declared values are kept, optional ones may be left out, and the single-use ones come sorted by name for the replay key")
    func accepted() throws {
        let all = try Self.check(["processId": Self.processId, "carrier": "mobile", "authcode": "Tel3c0de"])
        #expect(all["processId"] == Self.processId && all["authcode"] == "Tel3c0de" && all["carrier"] == "mobile")
        #expect(all.names == ["authcode", "carrier", "processId"])
        #expect(all.singleUse.map(\.name) == ["authcode", "processId"] && all.singleUse.map(\.value) == ["Tel3c0de", Self.processId])

        let required = try Self.check(["processId": Self.processId.uppercased()])
        #expect(required["authcode"] == nil && required.names == ["processId"] && required.singleUse.count == 1)
        // Non-single-use values alone leave nothing for the replay key.
        let notSpent = try ProviderFields(checking: ["carrier": "unicom"], against: [Self.declared[2]], provider: "flow")
        #expect(notSpent.singleUse.isEmpty && !notSpent.isEmpty)
    }

    @Test("a missing required field, a value out of format and an undeclared key are refused, naming providerFields.<key> and never the value")
    func refused() {
        let cases: [([String: String], String, String)] = [
            ([:], "providerFields.processId", "is required by the flow provider"),
            (["authcode": "abc"], "providerFields.processId", "is required"),
            (["processId": "0f1e"], "providerFields.processId", "must be exactly 32 characters: hexadecimal digits"),
            (["processId": String(repeating: "g", count: 32)], "providerFields.processId", "hexadecimal digits"),
            (["processId": Self.processId, "authcode": "has space"], "providerFields.authcode", "must be 1-16 characters: ASCII letters and digits"),
            (["processId": Self.processId, "authcode": String(repeating: "a", count: 17)], "providerFields.authcode", "1-16 characters"),
            (["processId": Self.processId, "authcode": ""], "providerFields.authcode", "is empty"),
            (["processId": Self.processId, "carrier": "移动"], "providerFields.carrier", "ASCII letters, digits and '-', '_'"),
            (["processId": Self.processId, "processID": "x"], "providerFields.processID", "is not a field the flow provider reads; it reads authcode, carrier, processId"),
            (["b": "1", "a": "2", "processId": Self.processId], "providerFields.a", "reads (nor is b);"),
            (["e": "1", "d": "1", "c": "1", "b": "1", "a": "1"], "providerFields.a", "(nor are b, c, d and 1 more)"),
        ]
        for (sent, field, problem) in cases {
            let refusal = Self.refusal(sent)
            #expect(refusal?.field == field, "\(sent.keys.sorted()): \(String(describing: refusal))")
            #expect(refusal?.message.hasPrefix("\(field): ") == true && refusal?.message.contains(problem) == true, "\(refusal?.message ?? "accepted")")
            for value in sent.values where value.count > 2 {
                #expect(refusal?.message.contains(value) == false, "the value in the message: \(refusal?.message ?? "")")
            }
        }
    }

    @Test("a provider that declares none takes an empty object and refuses any key, saying it reads none")
    func declaresNone() throws {
        #expect(try ProviderFields(checking: [:], against: [], provider: "cmcc") == .none)
        let refusal = Self.refusal(["processId": Self.processId], against: [])
        #expect(refusal?.field == "providerFields.processId")
        #expect(refusal?.message == "providerFields.processId: is not a field the flow provider reads; it reads none, so send no providerFields for this app")
    }

    @Test("a charset allows exactly its ASCII bytes, never a byte above 0x7F")
    func charsets() {
        let hex = Set("0123456789abcdefABCDEF".utf8)
        let allowed = Self.allBytes.filter(ProviderField.Charset.hexDigits.allows)
        #expect(Set(allowed) == hex && allowed.count == hex.count)
        #expect(Self.allBytes.filter(ProviderField.Charset.printableASCII.allows) == Array(UInt8(0x21)...UInt8(0x7E)))
        let odd = ProviderField.Charset("odd", allowing: [0x00, 0x3F, 0x40, 0x7F, 0x80, 0xFF])
        #expect(Self.allBytes.filter(odd.allows) == [0x00, 0x3F, 0x40, 0x7F])
        #expect(ProviderField.Charset.alphanumeric(plus: "-_").allows(UInt8(ascii: "_")) && !ProviderField.Charset.alphanumeric.allows(UInt8(ascii: "_")))
    }

    @Test("checked fields print their names, never a value")
    func redacted() throws {
        let fields = try Self.check(["processId": Self.processId, "authcode": "Tel3c0de"])
        var dumped = ""
        dump(fields, to: &dumped)
        for text in ["\(fields)", String(reflecting: fields), dumped] {
            #expect(text.contains("authcode,processId") && !text.contains(Self.processId) && !text.contains("Tel3c0de"), "\(text)")
        }
    }
}
