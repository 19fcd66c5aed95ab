import COpenSSL

/// One-shot message digests and HMAC through OpenSSL 3's EVP interface.
public enum Digest {
    /// MD5 of `data` (16 bytes). Only for carrier protocols that require it, never for secrets at rest.
    public static func md5(_ data: some Sequence<UInt8>) throws -> [UInt8] {
        try digest(data, algorithm: FetchedAlgorithms.shared.md5, name: "MD5", length: 16)
    }

    /// SHA-256 of `data` (32 bytes).
    public static func sha256(_ data: some Sequence<UInt8>) throws -> [UInt8] {
        try digest(data, algorithm: FetchedAlgorithms.shared.sha256, name: "SHA256", length: 32)
    }

    /// Digest contexts not in use. `EVP_Digest` made and freed one (and the provider's state
    /// behind it) per call, about half the cost of hashing a short message; a context is
    /// re-initialised for whichever algorithm the next caller asks for. A spare context holds no
    /// message bytes (OpenSSL's final step cleanses its input block), only the last digest's
    /// chaining state, which is that digest.
    private static let contexts = OpenSSLContextPool(free: EVP_MD_CTX_free)

    /// HMAC-SHA256 of `data` under `key` (32 bytes).
    public static func hmacSHA256(key: some Sequence<UInt8>, data: some Sequence<UInt8>) throws -> [UInt8] {
        try hmac(key: key, data: data, digest: "SHA256", length: 32)
    }

    /// HMAC-SHA1 of `data` under `key` (20 bytes). Only for provider protocols that require it
    /// (Alibaba Cloud's RPC signature, `SignatureVersion 1.0`).
    public static func hmacSHA1(key: some Sequence<UInt8>, data: some Sequence<UInt8>) throws -> [UInt8] {
        try hmac(key: key, data: data, digest: "SHA1", length: 20)
    }

    private static func hmac(key: some Sequence<UInt8>, data: some Sequence<UInt8>, digest: String, length expected: Int) throws -> [UInt8] {
        guard let mac = FetchedAlgorithms.shared.hmac else {
            throw OpenSSLError(operation: .hmac, reason: "HMAC is not available from the loaded OpenSSL providers")
        }
        let key = Array(key)
        let data = Array(data)
        var output = [UInt8](repeating: 0, count: expected)
        var length = 0
        try OpenSSLErrorQueue.run {
            let ok = COpenSSL_hmac(mac, digest, key, key.count, data, data.count, &output, output.count, &length)
            guard ok == 1, length == expected else { throw OpenSSLErrorQueue.failure(.hmac, "HMAC-\(digest) failed") }
        }
        return output
    }

    private static func digest(
        _ data: some Sequence<UInt8>, algorithm: OpaquePointer?, name: String, length: Int
    ) throws -> [UInt8] {
        guard let algorithm else {
            throw OpenSSLError(operation: .digest, reason: "\(name) is not available from the loaded OpenSSL providers")
        }
        let data = Array(data)
        var output = [UInt8](repeating: 0, count: length)
        var written: UInt32 = 0
        try OpenSSLErrorQueue.run {
            guard let context = contexts.take() ?? EVP_MD_CTX_new() else {
                throw OpenSSLErrorQueue.failure(.digest, "\(name) context allocation failed")
            }
            guard EVP_DigestInit_ex2(context, algorithm, nil) == 1, EVP_DigestUpdate(context, data, data.count) == 1,
                EVP_DigestFinal_ex(context, &output, &written) == 1, Int(written) == length
            else {
                contexts.discard(context)
                throw OpenSSLErrorQueue.failure(.digest, "\(name) digest failed")
            }
            contexts.give(context)
        }
        return output
    }
}
