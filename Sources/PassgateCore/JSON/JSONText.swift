/// JSON string writing shared by every hand-written JSON output (log lines, response bodies,
/// replay-cache entries, audit lines, carrier request bodies).
///
/// One escaper, because these run several times per request: runs of plain bytes are copied at
/// once rather than checked and appended byte by byte.
public enum JSONText {
    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters and DEL as
    /// `\n`, `\r`, `\t`, `\b`, `\f` (the short forms `JSONEncoder` writes) or `\u00XX`;
    /// everything else, `/` and non-ASCII included, as UTF-8.
    /// A line built from these never contains a raw newline.
    public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        withUTF8(text) { appendQuoted($0, to: &output) }
    }

    /// `appendQuoted` for UTF-8 bytes that are already valid UTF-8.
    public static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: quotedCapacity(utf8.count)) { scratch in
            let written = writeQuoted(utf8, to: scratch.baseAddress!)
            output.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress, count: written))
        }
    }

    /// Calls `body` with `text`'s UTF-8 in place (native strings), or with a contiguous copy.
    @inline(__always)
    static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    /// The most bytes `writeQuoted` writes for `count` bytes: every byte as `\u00XX`, and the quotes.
    static func quotedCapacity(_ count: Int) -> Int { count * 6 + 2 }

    /// Writes `utf8` as a quoted JSON string at `out`, which has room for
    /// `quotedCapacity(utf8.count)` bytes; returns the number of bytes written. Straight pointer
    /// writes: an `Array` append checks uniqueness and capacity every time, and a member is
    /// otherwise five of them.
    static func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\"")
        var written = 1
        var runStart = 0
        while true {
            let index = nextEscape(in: utf8, from: runStart)
            if runStart < index, let base = utf8.baseAddress {
                (out + written).update(from: base + runStart, count: index - runStart)
                written += index - runStart
            }
            guard index < utf8.count else { break }
            written += writeEscape(utf8[index], to: out + written)
            runStart = index + 1
        }
        out[written] = UInt8(ascii: "\"")
        return written + 1
    }

    /// The index of the first byte at or after `start` that needs an escape, else `utf8.count`.
    /// Eight bytes at a time: almost nothing Passgate writes needs one.
    static func nextEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = utf8.baseAddress else { return utf8.count }
        var index = start
        while index + 8 <= utf8.count {
            if wordNeedsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { break }
            index += 8
        }
        while index < utf8.count {
            if needsEscape(utf8[index]) { return index }
            index += 1
        }
        return utf8.count
    }

    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the eight bytes needs an escape. The bit tricks ("has a byte less than n",
    /// "has a zero byte" on `word ^ repeated c`) can mark bytes after a real hit, never a word
    /// without one, and only the yes/no answer is used; the byte loop finds the position.
    static func wordNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highBits }
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quote = hasZeroByte(word ^ (ones &* 0x22))
        let backslash = hasZeroByte(word ^ (ones &* 0x5C))
        let delete = hasZeroByte(word ^ (ones &* 0x7F))
        return (control | quote | backslash | delete) != 0
    }

    /// Writes the escape for `byte` at `out`; returns its length (2 or 6).
    private static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[1] = byte
        case 0x0A: out[1] = UInt8(ascii: "n")
        case 0x0D: out[1] = UInt8(ascii: "r")
        case 0x09: out[1] = UInt8(ascii: "t")
        case 0x08: out[1] = UInt8(ascii: "b")
        case 0x0C: out[1] = UInt8(ascii: "f")
        default:
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hexDigit(byte >> 4)
            out[5] = hexDigit(byte & 0x0F)
            return 6
        }
        return 2
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
