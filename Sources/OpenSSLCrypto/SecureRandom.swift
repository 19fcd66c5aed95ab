import COpenSSL

/// Cryptographically secure randomness and comparisons that do not leak through timing.
public enum SecureRandom {
    /// `count` bytes from OpenSSL's CSPRNG.
    public static func bytes(count: Int) throws -> [UInt8] {
        precondition(count >= 0, "negative byte count")
        var output = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return output }
        try OpenSSLErrorQueue.run {
            guard RAND_bytes(&output, Int32(count)) == 1 else {
                throw OpenSSLErrorQueue.failure(.random, "RAND_bytes failed: the OpenSSL random generator is not seeded")
            }
        }
        return output
    }
}

/// Compares two byte strings in time that depends only on their length (`CRYPTO_memcmp`).
/// Lengths are not secret here (digests, MACs), so unequal lengths return early.
public func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard !lhs.isEmpty else { return true }
    return lhs.withUnsafeBytes { left in
        rhs.withUnsafeBytes { right in
            CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
        }
    }
}
