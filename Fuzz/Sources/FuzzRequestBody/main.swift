import PassgateCore
import FuzzSupport
import PassgateAPI

// Fuzzes the REST request body decoders. Each input is one body, given to both decoders.
// Invariants: a decoder returns a value exactly when the body meets the documented contract
// (openapi.yaml, APIRequests.swift), worked out here independently of the decoder; a value holds
// the body's own fields; a rejection is `invalid_request` naming a known field, or
// `providerFields.<key>` for a key of the body's own `providerFields`.

/// Also hold `reference` to openapi.yaml's `maxLength: 128`, which JSON Schema counts in code
/// points, as the decoder now does (it counted Characters: Fuzz/Findings/README.md). On by default.
private let checkSchemaLength = fuzzSwitch("PASSGATE_FUZZ_OPENAPI_LENGTH", default: true)

private let knownFields: Set<String> = ["body", "appId", "token", "phoneNumber", "providerFields", "reference"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBody(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = fuzzInput(data, size)
    let contract = Contract(body)
    do {
        let request = try PhoneNumberRequest(json: body)
        Invariant.check(contract.loginValid, "PhoneNumberRequest accepted a body the contract rejects: \(request)")
        contract.checkCommon(appId: request.appId, token: request.token, providerFields: request.providerFields, reference: request.reference)
    } catch {
        Invariant.check(!contract.loginValid, "PhoneNumberRequest rejected a valid body: \(error)")
        checkRejection(error, contract)
    }
    do {
        let request = try VerifyRequest(json: body)
        Invariant.check(contract.verifyValid, "VerifyRequest accepted a body the contract rejects: \(request)")
        contract.checkCommon(appId: request.appId, token: request.token, providerFields: request.providerFields, reference: request.reference)
        Invariant.check(request.phoneNumber == contract.text("phoneNumber"), "phoneNumber differs from the body's")
    } catch {
        Invariant.check(!contract.verifyValid, "VerifyRequest rejected a valid body: \(error)")
        checkRejection(error, contract)
    }
    return 0
}

/// A rejection is the caller's fault, names the field at fault, and says so in its message.
private func checkRejection(_ error: PassgateError, _ contract: Contract) {
    Invariant.check(error.code == .invalidRequest, "rejection with code \(error.code.rawValue): \(error)")
    guard case .request(let field?, _) = error.reason else { Invariant.fail("rejection without a field: \(error)") }
    Invariant.check(knownFields.contains(field) || contract.isProviderFieldPath(field), "rejection names unknown field '\(field)': \(error)")
    Invariant.check(contract.document != nil || field == "body", "a non-object body blamed on '\(field)': \(error)")
    Invariant.check(error.message.hasPrefix("\(field): "), "message does not start with the field: \(error.message)")
    // Messages are fixed texts plus at most a byte or a 64-byte key of the input; a long one would echo the body.
    Invariant.check(error.message.utf8.count < 512, "message of \(error.message.utf8.count) bytes")
}

/// The documented field rules, applied to the body as the JSON parser reads it.
private struct Contract {
    /// The body when it is a JSON object.
    let document: ParsedJSON?

    init(_ body: [UInt8]) {
        if let parsed = try? ParsedJSON.parse(body), case .object = parsed { document = parsed } else { document = nil }
    }

    func text(_ field: String) -> String? { document?[field]?.stringValue }

    /// appId: 1-64 ASCII letters, digits, '-', '_' or '.'.
    var appIdValid: Bool {
        guard let appId = text("appId") else { return false }
        return (1...64).contains(appId.utf8.count) && appId.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    /// token: 1-4096 printable ASCII characters, no space.
    var tokenValid: Bool {
        guard let token = text("token") else { return false }
        return (1...4096).contains(token.utf8.count) && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// phoneNumber: `1[3-9]` and 9 more digits, nothing else.
    var phoneNumberValid: Bool {
        guard let number = text("phoneNumber") else { return false }
        let digits = Array(number.utf8)
        guard digits.count == 11, digits.allSatisfy({ (48...57).contains($0) }) else { return false }
        return digits[0] == UInt8(ascii: "1") && digits[1] >= UInt8(ascii: "3")
    }

    /// reference: absent, null, or at most 128 characters without control characters.
    var referenceValid: Bool {
        switch document?["reference"] {
        case nil, .null?: return true
        case .string(let reference)?: return reference.unicodeScalars.count <= 128 && !reference.unicodeScalars.contains { $0.properties.generalCategory == .control }
        default: return false
        }
    }

    /// providerFields: absent, null, or an object of strings whose keys are 1-64 ASCII letters,
    /// digits, '_' or '-', none twice. Which keys a provider reads is the server's business.
    var providerFieldsValid: Bool {
        switch document?["providerFields"] {
        case nil, .null?: return true
        case .object(let members)?:
            return Set(members.map(\.key)).count == members.count
                && members.allSatisfy { isFieldName($0.key) && $0.value.stringValue != nil }
        default: return false
        }
    }

    /// `providerFields.<key>` for a key of the body's `providerFields`.
    func isProviderFieldPath(_ field: String) -> Bool {
        guard field.hasPrefix("providerFields."), case .object(let members)? = document?["providerFields"] else { return false }
        let key = field.dropFirst("providerFields.".count)
        return members.contains { $0.key == key }
    }

    var loginValid: Bool { document != nil && appIdValid && tokenValid && providerFieldsValid && referenceValid }
    var verifyValid: Bool { loginValid && phoneNumberValid }

    /// A decoded value holds exactly the body's fields.
    func checkCommon(appId: String, token: String, providerFields: [String: String], reference: String?) {
        Invariant.check(appId.utf8.elementsEqual(text("appId")?.utf8 ?? "".utf8), "appId differs from the body's")
        Invariant.check(token.utf8.elementsEqual(text("token")?.utf8 ?? "".utf8), "token differs from the body's")
        var sent: [String: String] = [:]
        if case .object(let members)? = document?["providerFields"] {
            for (key, value) in members { sent[key] = value.stringValue }
        }
        Invariant.check(providerFields == sent, "providerFields differ from the body's: \(providerFields.keys.sorted()) vs \(sent.keys.sorted())")
        Invariant.check(reference?.utf8.elementsEqual(text("reference")?.utf8 ?? "".utf8) ?? (text("reference") == nil), "reference differs from the body's")
        if checkSchemaLength, let reference {
            Invariant.check(reference.unicodeScalars.count <= 128, "reference of \(reference.unicodeScalars.count) code points accepted (openapi.yaml: maxLength 128)")
        }
    }
}

private func isFieldName(_ key: String) -> Bool {
    (1...64).contains(key.utf8.count) && key.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
}

private func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
}

/// The executable's entry point: libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzRequestBody_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzRequestBody)
}
