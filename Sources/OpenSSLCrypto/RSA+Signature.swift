import COpenSSL

/// The digest inside an RSASSA-PKCS1-v1_5 signature.
public enum SignatureDigest: String, Sendable {
    /// SHA256withRSA: CMCC loginTokenValidate in RSA mode.
    case sha256 = "SHA256"
    /// MD5withRSA: CMCC tokenValidate with keyType 1.
    case md5 = "MD5"
}

extension RSAPrivateKey {
    /// RSASSA-PKCS1-v1_5 signature of `message` (hashed here with `digest`).
    public func sign(_ message: some Sequence<UInt8>, digest: SignatureDigest = .sha256) throws -> [UInt8] {
        let message = Array(message)
        return try OpenSSLErrorQueue.run {
            guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.failure(.sign, "out of memory") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit_ex(context, nil, digest.rawValue, nil, nil, key.pointer, nil) == 1 else {
                throw OpenSSLErrorQueue.failure(.sign, "cannot initialise \(digest.rawValue)withRSA signing")
            }
            var length = key.maxOutputSize
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
                throw OpenSSLErrorQueue.failure(.sign, "\(digest.rawValue)withRSA signing failed")
            }
            return Array(signature.prefix(length))
        }
    }
}

extension RSAPublicKey {
    /// Whether `signature` is a valid RSASSA-PKCS1-v1_5 signature of `message`. A malformed or
    /// wrong signature is `false`, not an error; errors are for keys OpenSSL cannot use.
    public func verify(
        _ signature: [UInt8], for message: some Sequence<UInt8>, digest: SignatureDigest = .sha256
    ) throws -> Bool {
        let message = Array(message)
        return try OpenSSLErrorQueue.run {
            guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.failure(.verify, "out of memory") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit_ex(context, nil, digest.rawValue, nil, nil, key.pointer, nil) == 1 else {
                throw OpenSSLErrorQueue.failure(.verify, "cannot initialise \(digest.rawValue)withRSA verification")
            }
            return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        }
    }
}
