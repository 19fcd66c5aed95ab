/// ASCII case-insensitive comparisons for protocol tokens checked on every request or transfer
/// (URL schemes, header names): the curl transport's and the API listener's. `String.lowercased()`
/// allocates a copy and applies Unicode case mapping to text whose only case-folding is A-Z; these
/// compare the bytes in place.
public enum ASCIICase {
    /// Whether `text` starts with `prefix`, ignoring the case of A-Z/a-z; `prefix` must be
    /// lowercase. Other bytes must match exactly.
    public static func hasPrefix(_ text: String, lowercased prefix: StaticString) -> Bool {
        matches(text, prefix, wholeText: false)
    }

    /// Whether `text` is `word`, ignoring the case of A-Z/a-z; `word` must be lowercase.
    public static func equals(_ text: String, lowercased word: StaticString) -> Bool {
        matches(text, word, wholeText: true)
    }

    /// Whether two strings are equal, ignoring the case of A-Z/a-z.
    public static func equals(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && equalPrefix(x, y) } }
    }

    private static func matches(_ text: String, _ pattern: StaticString, wholeText: Bool) -> Bool {
        var text = text
        let wanted = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        return text.withUTF8 { bytes in
            (wholeText ? bytes.count == wanted.count : bytes.count >= wanted.count)
                && equalPrefix(UnsafeBufferPointer(rebasing: bytes.prefix(wanted.count)), wanted)
        }
    }

    /// The first `y.count` bytes of `x` equal `y`'s, A-Z folded to a-z on both sides.
    private static func equalPrefix(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<y.count where x[index] != y[index] {
            let lower = x[index] | 0x20
            guard lower == y[index] | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
    }
}
