/// JSON string writing shared by every hand-written JSON output (log lines, response bodies,
/// replay-cache entries, audit lines, carrier request bodies).
///
/// One escaper, because these run several times per request: the earlier per-byte loops
/// (a capacity check and append for every byte) were the largest single function in the
/// instruction profile (bench/PROFILE.md). Here runs of plain bytes are copied at once.
public enum JSONText {
    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters and DEL as
    /// `\n`, `\r`, `\t`, `\b`, `\f` (the short forms `JSONEncoder` writes) or `\u00XX`;
    /// everything else, `/` and non-ASCII included, as UTF-8.
    /// A line built from these never contains a raw newline.
    public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted($0, to: &output) }
    }

    /// `appendQuoted` for UTF-8 bytes that are already valid UTF-8.
    public static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.reserveCapacity(output.count + utf8.count + 2)
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            appendEscape(byte, to: &output)
        }
        if runStart < utf8.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            output.append(UInt8(ascii: "u"))
            output.append(UInt8(ascii: "0"))
            output.append(UInt8(ascii: "0"))
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
