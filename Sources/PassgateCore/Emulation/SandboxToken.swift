import OpenSSLCrypto

/// The shape of SDK tokens: `STsid`, 16 digits (zero-padded mint time in milliseconds), then
/// random base62 from the CSPRNG; 56 characters, like the tokens in CMCC's examples. The sandbox
/// mints every provider's tokens in this shape; emulators that check a token's form use ``hasTokenShape(_:)``.
public enum SandboxToken {
    public static let prefix = "STsid"
    public static let length = 56
    public static let acceptedLengths = 50...60
    private static let digitCount = 16
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// A fresh token minted at `nowMs`.
    public static func make(nowMs: Int64) throws -> String {
        var digits = String(max(nowMs, 0))
        digits = String(repeating: "0", count: max(0, digitCount - digits.count)) + digits.suffix(digitCount)
        let randomCount = length - prefix.count - digitCount
        var output = Array((prefix + digits).utf8)
        output.reserveCapacity(length)
        while output.count < length {
            // Rejection sampling keeps base62 uniform: 248 = 4 * 62.
            for byte in try SecureRandom.bytes(count: randomCount + 8) where byte < 248 && output.count < length {
                output.append(alphabet[Int(byte % 62)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `text` looks like an SDK token: `STsid`, at least 16 digits, base62, 50-60 chars.
    public static func hasTokenShape(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard acceptedLengths.contains(utf8.count), text.hasPrefix(prefix) else { return false }
        let isDigit = { (byte: UInt8) in (48...57).contains(byte) }
        let isBase62 = { (byte: UInt8) in isDigit(byte) || (65...90).contains(byte) || (97...122).contains(byte) }
        return utf8[prefix.count..<prefix.count + digitCount].allSatisfy(isDigit) && utf8.allSatisfy(isBase62)
    }

    /// A carrier billing/task id: 32 lowercase hex characters.
    public static func taskId() -> String {
        Hex.lowercase((try? SecureRandom.bytes(count: 16)) ?? (0..<16).map { _ in UInt8.random(in: 0...255) })
    }
}
