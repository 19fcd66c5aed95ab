/// Writes one JSON object straight into UTF-8 bytes, members in the order they are added: the one
/// JSON writer of Passgate, for API answers, log lines, audit lines, replay entries and provider
/// request bodies. No Foundation objects and no bridging: every request writes several objects.
public struct JSONObjectWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var empty = true

    /// `capacity`: bytes reserved up front, before the brace (from a one-byte array, growing to a
    /// typical line was a second allocation).
    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// `"key":"value"`; nothing at all when `value` is nil.
    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        member(key, quoting: value)
    }

    /// `"key":"value"`, or `"key":null` when `value` is nil (fixed-shape lines keep every key).
    public mutating func add(_ key: String, orNull value: String?) {
        guard let value else {
            member(key)
            return bytes.append(contentsOf: "null".utf8)
        }
        member(key, quoting: value)
    }

    public mutating func add(_ key: String, _ value: Bool) {
        member(key)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    public mutating func add(_ key: String, _ value: Int) {
        member(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A number with at most three decimals (milliseconds to the microsecond), shortest form.
    public mutating func add(_ key: String, decimal value: Double) {
        member(key)
        bytes.append(contentsOf: Self.decimal(value).utf8)
    }

    /// A nested object, finished here.
    public mutating func add(_ key: String, object: JSONObjectWriter) {
        var nested = object
        member(key)
        bytes.append(contentsOf: nested.finish())
    }

    /// A value already encoded as JSON (an array, say), copied as it is.
    public mutating func add(_ key: String, json: [UInt8]) {
        member(key)
        bytes.append(contentsOf: json)
    }

    /// The object's bytes, closed.
    public mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// `,"key":` (the comma unless first), and `"value"` after it when given, in one append:
    /// members are written about fifty times per request, and appending piece by piece (five
    /// appends, each checking uniqueness and capacity) cost as much as the rest of a line.
    private mutating func member(_ key: String, quoting value: String? = nil) {
        let separator = empty ? 0 : 1
        empty = false
        JSONText.withUTF8(key) { key in
            JSONText.withUTF8(value ?? "") { valueBytes in
                let valueCapacity = value == nil ? 0 : JSONText.quotedCapacity(valueBytes.count)
                let capacity = separator + JSONText.quotedCapacity(key.count) + 1 + valueCapacity
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
                    let out = scratch.baseAddress!
                    if separator == 1 { out[0] = UInt8(ascii: ",") }
                    var written = separator + JSONText.writeQuoted(key, to: out + separator)
                    out[written] = UInt8(ascii: ":")
                    written += 1
                    if value != nil { written += JSONText.writeQuoted(valueBytes, to: out + written) }
                    bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: written))
                }
            }
        }
    }

    /// `value` rounded to three decimals, trailing zeros dropped; non-finite values (never
    /// expected) as 0.
    public static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let micros = (value * 1000).rounded()
        guard abs(micros) < 1e15 else { return String(value.rounded()) }
        return DecimalText.string(scaled: Int64(micros), fractionDigits: 3, trimmed: true)
    }
}
