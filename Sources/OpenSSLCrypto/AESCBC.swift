import COpenSSL

/// AES-128-CBC with PKCS#7 padding through OpenSSL 3's EVP interface, for provider protocols that
/// require it (an aggregator that encrypts the number this way). Unauthenticated: a wrong key usually fails
/// the padding check but can yield garbage, so callers validate the plaintext.
public enum AESCBC {
    /// Key and IV length in bytes (AES-128).
    public static let keyLength = 16
    public static let blockLength = 16

    /// Encrypts `plaintext` under `key` with `iv`, padded to whole blocks (PKCS#7).
    /// - Throws: `OpenSSLError` (`.encrypt`) for a key or IV that is not 16 bytes, or an OpenSSL failure.
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        try run(.encrypt, plaintext, key: key, iv: iv)
    }

    /// Decrypts a whole number of blocks and strips the PKCS#7 padding.
    /// - Throws: `OpenSSLError` (`.decrypt`) for a key or IV that is not 16 bytes, a length that is
    ///   not a positive multiple of 16, or bad padding (a wrong key, most of the time).
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % blockLength == 0 else {
            throw OpenSSLError(operation: .decrypt, reason: "AES-128-CBC ciphertext is \(ciphertext.count) bytes, not a positive multiple of 16")
        }
        return try run(.decrypt, ciphertext, key: key, iv: iv)
    }

    private static func run(_ operation: OpenSSLError.Operation, _ input: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard key.count == keyLength, iv.count == blockLength else {
            throw OpenSSLError(operation: operation, reason: "AES-128-CBC needs a 16-byte key and IV, got \(key.count) and \(iv.count) bytes")
        }
        guard let cipher = FetchedAlgorithms.shared.aes128CBC else {
            throw OpenSSLError(operation: operation, reason: "AES-128-CBC is not available from the loaded OpenSSL providers")
        }
        return try CBCCipher.run(cipher, name: "AES-128-CBC", blockLength: blockLength, operation, input, key: key, iv: iv)
    }
}
