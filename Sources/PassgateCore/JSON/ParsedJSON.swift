/// One JSON value (RFC 8259), decoded straight from UTF-8 bytes by `ParsedJSON.parse(_:)`.
///
/// Built to replace `JSONSerialization` on the request and carrier-reply paths: no bridging
/// to `[String: Any]` and no dynamic casts, so reading a field is a pattern match.
///
/// Not `indirect`: arrays and objects already hold their elements in heap storage, and boxing
/// every scalar too cost an allocation per value parsed, several per request.
public enum ParsedJSON: Sendable, Equatable {
    /// A string with every escape decoded.
    case string(String)
    /// The number's exact text as it appeared, e.g. `"103000"` or `"-1.5e3"`.
    ///
    /// Kept as text because carriers send codes and ids as numbers whose leading digits,
    /// precision and spelling matter more than their arithmetic value.
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array, in document order.
    case array([ParsedJSON])
    /// An object's members in document order, repeated keys included.
    ///
    /// A list rather than a dictionary: the objects we see are small, and a linear scan
    /// beats hashing while keeping the order for logs and diagnostics.
    case object([(key: String, value: ParsedJSON)])

    /// Deepest nesting of arrays and objects accepted; bounds the recursion so hostile input
    /// gets an error instead of a stack overflow. Real request and reply bodies nest 2–3 levels.
    static let maximumDepth = 64

    /// Parses exactly one JSON value (RFC 8259) from `bytes`, surrounded by optional whitespace.
    ///
    /// Strict: no comments, trailing commas, single quotes, NaN/Infinity, leading zeros, byte
    /// order mark or invalid UTF-8. Error offsets count bytes from the start of `bytes`.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> ParsedJSON {
        // A collection without contiguous storage (rare) is copied once, so the parser can index memory.
        try (bytes.withContiguousStorageIfAvailable(JSONParser.parse)
            ?? Array(bytes).withUnsafeBufferPointer(JSONParser.parse)).get()
    }

    /// Structural equality; objects compare member by member, so order and repeated keys matter.
    public static func == (lhs: ParsedJSON, rhs: ParsedJSON) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case (.null, .null): return true
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            // Tuples are not Equatable, so the synthesized conformance cannot cover this case.
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// For an object, the value of `key`; nil for a missing key or when this is not an object.
    ///
    /// When a key repeats, the last occurrence wins, as it does with `JSONSerialization`,
    /// so switching parsers cannot change which value a duplicated field yields.
    public subscript(key: String) -> ParsedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The decoded text of a `.string`; nil for every other kind (numbers are not converted).
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// A short article and noun for error messages, e.g. "a string" or "an object".
    public var kindDescription: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why a byte sequence is not exactly one valid JSON value.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset of the problem, counted from the start of the parsed collection.
    public let offset: Int
    /// What is wrong, e.g. "unexpected character 'x'" or "unterminated string".
    public let problem: String

    public init(offset: Int, problem: String) {
        self.offset = offset
        self.problem = problem
    }

    /// The problem and where it is, e.g. "invalid number at byte 7".
    public var description: String { "\(problem) at byte \(offset)" }
}
