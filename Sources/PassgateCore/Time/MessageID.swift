import OpenSSLCrypto
import Synchronization

/// Carrier message ids: 32 lowercase hex characters (a random UUID v4 without dashes), unique
/// per request because CMCC rejects a reused msgid (103107 / 103505).
public enum MessageID {
    /// A fresh id from the CSPRNG.
    public static func make() -> String {
        var bytes = pool.take16()
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        return Hex.lowercase(bytes)
    }

    /// Whether `text` is acceptable as a CMCC msgid: 1 to 36 characters of `[0-9A-Za-z-]`.
    public static func isWellFormed(_ text: some StringProtocol) -> Bool {
        (1...36).contains(text.utf8.count)
            && text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || ($0 < 128 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber)) }
    }

    private static let pool = RandomBytePool()

    static func fallbackBytes() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

/// CSPRNG output drawn 4 KiB at a time and handed out 16 bytes per id.
///
/// Two ids per request (the request id and the carrier msgid): one `RAND_bytes` call each would go
/// through OpenSSL's per-thread DRBG setup and locks, more than the rest of the id costs. Ids must
/// be unique and unguessable, not secret, and the pool
/// lives only in this process's memory, like the DRBG's own state.
final class RandomBytePool: Sendable {
    private struct Buffer {
        var bytes: [UInt8] = []
        var next = 0
    }

    private static let chunk = 4096
    // `Mutex`: a 16-byte copy under the lock; the refill (one RAND_bytes call per 256 ids) too.
    private let buffer = Mutex(Buffer())

    func take16() -> [UInt8] {
        buffer.withLock { state in
            if state.next + 16 > state.bytes.count {
                // RAND_bytes only fails when OpenSSL cannot seed at all; the process cannot sign then either.
                guard let fresh = try? SecureRandom.bytes(count: Self.chunk) else { return MessageID.fallbackBytes() }
                state = Buffer(bytes: fresh, next: 0)
            }
            defer { state.next += 16 }
            return Array(state.bytes[state.next..<state.next + 16])
        }
    }
}
