import COpenSSL

/// An HMAC-SHA256 key loaded once and used for many messages (the replay-cache key hashes
/// every request's token).
///
/// `Digest.hmacSHA256` keys a fresh context per call: OpenSSL 3 then fetches SHA-256 by name
/// and hashes the padded key each time, which was most of the cost of one short HMAC. Here the
/// keyed context is made once and each operation runs on its own duplicate.
///
/// `@unchecked Sendable`: the keyed `EVP_MAC_CTX` is written only in `init` and freed in
/// `deinit`; every operation duplicates it (`EVP_MAC_CTX_dup` takes it as `const`) and never
/// touches it otherwise, so concurrent use only reads it.
public final class HMACSHA256Key: @unchecked Sendable {
    private let keyed: OpaquePointer

    /// Keys the template; throws when OpenSSL has no HMAC or rejects the key.
    public init(key: [UInt8]) throws {
        guard let mac = FetchedAlgorithms.shared.hmac else {
            throw OpenSSLError(operation: .hmac, reason: "HMAC is not available from the loaded OpenSSL providers")
        }
        keyed = try OpenSSLErrorQueue.run {
            guard let context = COpenSSL_hmac_keyed(mac, "SHA256", key, key.count) else {
                throw OpenSSLErrorQueue.failure(.hmac, "HMAC-SHA256 key setup failed")
            }
            return context
        }
    }

    deinit { EVP_MAC_CTX_free(keyed) }

    /// HMAC-SHA256 of `data` (32 bytes); the same as `Digest.hmacSHA256(key:data:)` with this key.
    public func authenticationCode(for data: [UInt8]) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        try OpenSSLErrorQueue.run {
            guard COpenSSL_hmac_with_keyed(keyed, data, data.count, &output, output.count, &length) == 1, length == 32 else {
                throw OpenSSLErrorQueue.failure(.hmac, "HMAC-SHA256 failed")
            }
        }
        return output
    }
}
