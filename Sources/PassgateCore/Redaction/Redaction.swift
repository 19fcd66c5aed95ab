/// Makes text that came from outside (a provider's reply, its messages) safe for logs, metrics,
/// error messages and audit records: phone numbers, tokens and signatures never pass in clear.
///
/// Two rules, applied together: the value of any field whose name looks sensitive (`msisdn`,
/// `phone`, `mobile`, `token`, `sign`, `secret`, `key`, `password`, ...) is replaced, in JSON
/// (`"name": value`) and form or query (`name=value`) syntax; and every run of five or more
/// digits is replaced by its length. What is left keeps the shape an on-call engineer needs
/// (which fields, which punctuation, an HTML tag, a code's length).
public enum Redaction {
    /// Runs this long or longer are replaced: phone numbers are 11 digits, and a 5-digit run is
    /// already enough to narrow one down when combined with the mask `138****8000`.
    public static let digitRunLimit = 5

    /// Lower-case fragments of field names whose values are never shown.
    static let sensitiveNames: [[UInt8]] = ["msisdn", "phone", "mobile", "token", "sign", "secret", "key", "password", "passwd", "authorization"]
        .map { Array($0.utf8) }

    /// `text` with every run of `digitRunLimit` or more ASCII digits replaced by `<N digits>`.
    public static func scrubDigits(_ text: String) -> String {
        guard text.utf8.contains(where: isDigit) else { return text }
        return String(decoding: scrubDigits(Array(text.utf8)), as: UTF8.self)
    }

    /// `text` with sensitive field values and long digit runs replaced (both rules).
    public static func redact(_ text: String) -> String {
        // Carrier messages ("success", "token失效") usually hold neither digits nor `name=` / `"name":`
        // syntax: returned as they are, without a copy (every reply's description passes here).
        guard text.utf8.contains(where: { isDigit($0) || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\"") }) else { return text }
        return String(decoding: redact(Array(text.utf8)), as: UTF8.self)
    }

    /// Both rules over bytes.
    public static func redact(_ bytes: [UInt8]) -> [UInt8] {
        var redactor = FieldRedactor(bytes)
        return scrubDigits(redactor.run())
    }

    static func scrubDigits(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard isDigit(bytes[index]) else {
                output.append(bytes[index])
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, isDigit(bytes[end]) { end += 1 }
            if end - index >= digitRunLimit {
                output.append(contentsOf: "<\(end - index) digits>".utf8)
            } else {
                output.append(contentsOf: bytes[index..<end])
            }
            index = end
        }
        return output
    }

    /// Whether a field name (any case) contains one of the sensitive fragments.
    static func isSensitive(_ name: some Collection<UInt8>) -> Bool {
        let lowered = name.map { (65...90).contains($0) ? $0 | 0x20 : $0 }
        guard lowered.count >= 3 else { return false }
        return sensitiveNames.contains { fragment in
            lowered.count >= fragment.count && (0...(lowered.count - fragment.count)).contains { start in
                lowered[start..<(start + fragment.count)].elementsEqual(fragment)
            }
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
}
