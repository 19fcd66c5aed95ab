import COpenSSL

/// An HMAC-SHA256 key loaded once and used for many messages (the replay-cache key hashes
/// every request's token).
///
/// `Digest.hmacSHA256` keys a fresh context per call: OpenSSL 3 then fetches SHA-256 by name
/// and hashes the padded key each time, which was most of the cost of one short HMAC. Here the
/// key is set up once, in a template context; each operation borrows a keyed context from a
/// small pool of duplicates and restarts it from the stored key, which copies one digest state
/// rather than duplicating (and then freeing) a whole MAC context on every call.
///
/// `@unchecked Sendable`: the template `EVP_MAC_CTX` is written only in `init` and freed in
/// `deinit`, and is otherwise only read (`EVP_MAC_CTX_dup` takes it as `const`); each pooled
/// context is used by one thread at a time (``OpenSSLContextPool``).
public final class HMACSHA256Key: @unchecked Sendable {
    private let keyed: OpaquePointer
    /// Keyed contexts not in use.
    private let spare = OpenSSLContextPool(free: EVP_MAC_CTX_free)

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

    deinit {
        EVP_MAC_CTX_free(keyed)
    }

    /// HMAC-SHA256 of `data` (32 bytes); the same as `Digest.hmacSHA256(key:data:)` with this key.
    public func authenticationCode(for data: [UInt8]) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        try OpenSSLErrorQueue.run {
            guard let context = spare.take() ?? EVP_MAC_CTX_dup(keyed) else {
                throw OpenSSLErrorQueue.failure(.hmac, "HMAC-SHA256 context allocation failed")
            }
            guard COpenSSL_hmac_rekeyed(context, data, data.count, &output, output.count, &length) == 1, length == 32 else {
                spare.discard(context)
                throw OpenSSLErrorQueue.failure(.hmac, "HMAC-SHA256 failed")
            }
            spare.give(context)
        }
        return output
    }
}
