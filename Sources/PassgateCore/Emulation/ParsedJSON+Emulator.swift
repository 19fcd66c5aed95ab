/// Emulators and the sandbox read request bodies with the one JSON reader (`ParsedJSON`), kept as typed as
/// the wire: the carrier rules depend on whether a value was a string, a number or `null`
/// (non-strings are 103211 / 102).
extension ParsedJSON {
    /// `bytes` as one JSON value; nil if it is not JSON.
    public static func sandboxParse(_ bytes: [UInt8]) -> ParsedJSON? {
        guard !bytes.isEmpty else { return nil }
        return try? ParsedJSON.parse(bytes)
    }

    /// An object's members by key (the last of a repeated key wins, as `subscript` says); nil for
    /// anything else.
    public var members: [String: ParsedJSON]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The value as an exact integer, if it is a number without a fraction.
    public var integer: Int? {
        guard case .number(let text) = self, let value = Double(text), value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }
}
