import OpenSSLCrypto

/// Carrier message ids: 32 lowercase hex characters (a random UUID v4 without dashes), unique
/// per request because CMCC rejects a reused msgid (103107 / 103505).
public enum MessageID {
    /// A fresh id from the CSPRNG.
    public static func make() -> String {
        // RAND_bytes only fails when OpenSSL cannot seed at all; the process cannot sign then either.
        var bytes = (try? SecureRandom.bytes(count: 16)) ?? fallbackBytes()
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        return Hex.lowercase(bytes)
    }

    /// Whether `text` is acceptable as a CMCC msgid: 1 to 36 characters of `[0-9A-Za-z-]`.
    public static func isWellFormed(_ text: some StringProtocol) -> Bool {
        (1...36).contains(text.utf8.count)
            && text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || ($0 < 128 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber)) }
    }

    private static func fallbackBytes() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
