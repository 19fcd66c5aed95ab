import PassgateCore

/// `POST /v1/phone-number` body.
public struct PhoneNumberRequest: Sendable {
    public var appId: String
    public var token: String
    /// `providerFields` as sent (keys checked, values strings), not yet held to the app's
    /// provider: only the server knows the app, so it checks them (`ProviderFields`).
    public var providerFields: [String: String]
    public var reference: String?
}

/// `POST /v1/phone-number/verify` body.
public struct VerifyRequest: Sendable {
    public var appId: String
    public var token: String
    public var phoneNumber: String
    /// `providerFields` as sent, as for ``PhoneNumberRequest/providerFields``.
    public var providerFields: [String: String]
    public var reference: String?
}

extension PhoneNumberRequest {
    /// Decodes and validates a request body; every error names the field at fault.
    public init(json body: [UInt8]) throws(PassgateError) {
        let fields = try RequestFields(body)
        appId = try fields.appId()
        token = try fields.token()
        providerFields = try fields.providerFields()
        reference = try fields.reference()
    }
}

extension VerifyRequest {
    /// Decodes and validates a request body; every error names the field at fault.
    public init(json body: [UInt8]) throws(PassgateError) {
        let fields = try RequestFields(body)
        appId = try fields.appId()
        token = try fields.token()
        phoneNumber = try fields.required("phoneNumber")
        guard MSISDN.isMainland(phoneNumber) else {
            throw .invalidRequest(field: "phoneNumber", "must be an 11-digit mainland mobile number (1[3-9] followed by 9 digits, no +86 or spaces)")
        }
        providerFields = try fields.providerFields()
        reference = try fields.reference()
    }
}

/// A JSON object body read field by field, so every message can name the field at fault.
/// Unknown fields are ignored (forward compatibility for callers). Parsed with the one JSON reader
/// (`ParsedJSON`), straight from the bytes, without `[String: Any]` casts.
struct RequestFields {
    private let document: ParsedJSON

    init(_ body: [UInt8]) throws(PassgateError) {
        guard !body.isEmpty else { throw .invalidRequest(field: "body", "is empty; send a JSON object") }
        let parsed: ParsedJSON
        do {
            parsed = try ParsedJSON.parse(body)
        } catch {
            throw .invalidRequest(field: "body", "is not valid JSON (\(error))")
        }
        guard case .object = parsed else {
            throw .invalidRequest(field: "body", "must be a JSON object, not \(parsed.kindDescription)")
        }
        document = parsed
    }

    /// A required string field.
    func required(_ name: String) throws(PassgateError) -> String {
        guard let value = document[name], value != .null else { throw .invalidRequest(field: name, "is required") }
        guard let text = value.stringValue else { throw .invalidRequest(field: name, "must be a string, not \(value.kindDescription)") }
        return text
    }

    /// An optional string field.
    func optional(_ name: String) throws(PassgateError) -> String? {
        guard let value = document[name], value != .null else { return nil }
        guard let text = value.stringValue else { throw .invalidRequest(field: name, "must be a string, not \(value.kindDescription)") }
        return text
    }

    /// `appId`: 1-64 ASCII letters, digits, `-`, `_` or `.` (CMCC answers 103119 for stray
    /// spaces; catch them here).
    func appId() throws(PassgateError) -> String {
        let appId = try required("appId")
        guard (1...64).contains(appId.utf8.count), appId.allUTF8(Self.isAppIdByte) else {
            throw .invalidRequest(field: "appId", "must be 1-64 ASCII letters, digits, '-', '_' or '.' (no spaces), e.g. 300011111111")
        }
        return appId
    }

    /// `token`: 1-4096 printable ASCII characters, passed to the carrier unchanged.
    func token() throws(PassgateError) -> String {
        let token = try required("token")
        guard !token.isEmpty else { throw .invalidRequest(field: "token", "is empty; pass the token the carrier SDK returned") }
        guard token.utf8.count <= 4096 else { throw .invalidRequest(field: "token", "is longer than 4096 characters") }
        guard token.allUTF8({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidRequest(field: "token", "must be printable ASCII without spaces, quotes-escaping or line breaks; pass the SDK token unchanged")
        }
        return token
    }

    /// `reference`: the caller's own correlation id, echoed back; up to 128 Unicode code points
    /// (JSON Schema's `maxLength`, which `openapi.yaml` states; not grapheme clusters, which let
    /// combining marks make an unbounded "character") without control characters (C0, DEL, C1).
    func reference() throws(PassgateError) -> String? {
        guard let reference = try optional("reference") else { return nil }
        guard reference.unicodeScalars.count <= 128, !reference.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidRequest(field: "reference", "must be at most 128 characters (Unicode code points) without control characters")
        }
        return reference
    }

    /// `providerFields`: absent, null or an object of strings whose keys are 1-64 ASCII letters,
    /// digits, `_` or `-`, each once. Which keys and values are right depends on the app's
    /// provider, checked later; here only the shape, so that a key can be named in a message
    /// safely (a value never is).
    func providerFields() throws(PassgateError) -> [String: String] {
        let member = ProviderFields.member
        guard let value = document[member], value != .null else { return [:] }
        guard case .object(let members) = value else {
            throw .invalidRequest(field: member, "must be a JSON object of strings (\"processId\": \"…\"), not \(value.kindDescription)")
        }
        var fields: [String: String] = [:]
        fields.reserveCapacity(members.count)
        for (key, value) in members {
            guard (1...64).contains(key.utf8.count), key.allUTF8(Self.isFieldNameByte) else {
                throw .invalidRequest(field: member, "has a key (\(key.utf8.count) bytes) that is not 1-64 ASCII letters, digits, '_' or '-'")
            }
            guard let text = value.stringValue else {
                throw .invalidRequest(field: ProviderFields.path(key), "must be a string, not \(value.kindDescription)")
            }
            guard fields.updateValue(text, forKey: key) == nil else {
                throw .invalidRequest(field: ProviderFields.path(key), "appears more than once; send each field once")
            }
        }
        return fields
    }

    /// Letters, digits, `_`, `-`: what a camelCase SDK name (`processId`) needs, and nothing a
    /// message naming the key would have to escape.
    static func isFieldNameByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x5F || byte == 0x2D
    }

    /// Letters, digits, `-`, `_`, `.`: what the providers' consoles hand out as app ids, and
    /// what Passgate's own names for apps (`jg-shop`) use.
    static func isAppIdByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x2D || byte == 0x5F || byte == 0x2E
    }
}
