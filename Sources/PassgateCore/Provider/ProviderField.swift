/// One value a provider reads from the app's SDK besides the token, sent by the caller as
/// `providerFields.<name>` (an aggregator's flow id, a carrier's second token, the
/// carrier's name). A provider declares the ones it reads (`CarrierProvider.providerFields`);
/// the server refuses a request whose fields do not match the declaration before any call.
///
/// Only the format is declared (length and characters), never a value: a value may be a
/// single-use credential, so no message, log line or audit record ever shows one.
public struct ProviderField: Sendable, Hashable {
    /// The key in `providerFields`: a camelCase version of the SDK's own name (`processId`).
    public var name: String
    /// Whether a request without it is refused. An optional field is checked only when sent.
    public var required: Bool
    /// The shortest and longest value accepted, in bytes (every charset is ASCII, so characters).
    public var minLength: Int
    public var maxLength: Int
    /// The characters a value may hold.
    public var charset: Charset
    /// Whether the value is spent with the token (a flow id the provider accepts once): it is then
    /// part of the replay key, so the same token with another value is a new exchange, not a replay.
    public var singleUse: Bool

    public init(name: String, required: Bool, minLength: Int = 1, maxLength: Int, charset: Charset, singleUse: Bool) {
        self.name = name
        self.required = required
        self.minLength = minLength
        self.maxLength = maxLength
        self.charset = charset
        self.singleUse = singleUse
    }

    /// Whether `value` has this field's length and characters.
    public func accepts(_ value: String) -> Bool {
        (minLength...max(minLength, maxLength)).contains(value.utf8.count) && value.allUTF8(charset.allows)
    }

    /// What a value must look like, for the message refusing one: "must be 1-64 characters: …".
    var formatDescription: String {
        let length = minLength == maxLength ? "exactly \(maxLength)" : "\(minLength)-\(maxLength)"
        return "must be \(length) characters: \(charset.description)"
    }
}

extension ProviderField {
    /// A set of ASCII bytes, with the words a message uses for it. A bitmap: checking a byte is
    /// two shifts, and the set compares and hashes as a value.
    public struct Charset: Sendable, Hashable, CustomStringConvertible {
        /// E.g. "ASCII letters and digits", for messages.
        public let description: String
        private let low: UInt64
        private let high: UInt64

        /// The bytes of `characters` (ASCII only; anything else is never allowed).
        public init(_ description: String, allowing characters: some Sequence<UInt8>) {
            var low: UInt64 = 0, high: UInt64 = 0
            for byte in characters where byte < 0x80 {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
            self.description = description
            self.low = low
            self.high = high
        }

        public func allows(_ byte: UInt8) -> Bool {
            byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
        }

        /// `A-Z a-z 0-9`.
        public static let alphanumeric = Charset("ASCII letters and digits", allowing: Self.alphanumericBytes)
        /// `0-9 a-f A-F`.
        public static let hexDigits = Charset("hexadecimal digits", allowing: Array("0123456789abcdefABCDEF".utf8))
        /// Printable ASCII without the space (`!` to `~`), as tokens are.
        public static let printableASCII = Charset("printable ASCII without spaces", allowing: 0x21...0x7E)

        /// Letters, digits and the ASCII characters of `extra` (`"-_"`).
        public static func alphanumeric(plus extra: String) -> Charset {
            let quoted = extra.map { "'\($0)'" }.joined(separator: ", ")
            return Charset("ASCII letters, digits and \(quoted)", allowing: Self.alphanumericBytes + Array(extra.utf8))
        }

        private static let alphanumericBytes: [UInt8] = Array(48...57) + Array(65...90) + Array(97...122)

        public static func == (lhs: Charset, rhs: Charset) -> Bool { lhs.low == rhs.low && lhs.high == rhs.high }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(low)
            hasher.combine(high)
        }
    }
}
