import COpenSSL

/// AES-CBC with PKCS#7 padding through OpenSSL 3's EVP interface, for provider protocols that
/// require it (aggregators that encrypt the number this way: AES-128 under a 16-byte key, AES-256
/// under a 32-byte one). The key's length picks the cipher, as the providers' own demos do: a
/// caller holding the provider's key never names the variant. Unauthenticated: a wrong key
/// usually fails the padding check but can yield garbage, so callers validate the plaintext.
public enum AESCBC {
    /// The key lengths accepted, in bytes: 16 (AES-128) and 32 (AES-256). AES-192 is left out, as
    /// no provider uses it: a 24-byte key is more likely a mistake than a choice.
    public static let keyLengths = [16, 32]
    /// The block and IV length in bytes, whatever the key.
    public static let blockLength = 16

    /// Encrypts `plaintext` under `key` (16 or 32 bytes) with `iv`, padded to whole blocks (PKCS#7).
    /// - Throws: `OpenSSLError` (`.encrypt`) for a key that is neither 16 nor 32 bytes, an IV
    ///   that is not 16, or an OpenSSL failure.
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        try run(.encrypt, plaintext, key: key, iv: iv)
    }

    /// Decrypts a whole number of blocks and strips the PKCS#7 padding.
    /// - Throws: `OpenSSLError` (`.decrypt`) for a key that is neither 16 nor 32 bytes, an IV that
    ///   is not 16, a length that is not a positive multiple of 16, or bad padding (a wrong key,
    ///   most of the time).
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % blockLength == 0 else {
            throw OpenSSLError(operation: .decrypt, reason: "AES-CBC ciphertext is \(ciphertext.count) bytes, not a positive multiple of 16")
        }
        return try run(.decrypt, ciphertext, key: key, iv: iv)
    }

    /// The cipher for a key of `length` bytes, and its name for messages; nil for other lengths.
    private static func cipher(keyLength length: Int) -> (cipher: OpaquePointer?, name: String)? {
        switch length {
        case 16: (FetchedAlgorithms.shared.aes128CBC, "AES-128-CBC")
        case 32: (FetchedAlgorithms.shared.aes256CBC, "AES-256-CBC")
        default: nil
        }
    }

    private static func run(_ operation: OpenSSLError.Operation, _ input: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard let (fetched, algorithm) = cipher(keyLength: key.count), iv.count == blockLength else {
            throw OpenSSLError(
                operation: operation, reason: "AES-CBC needs a 16-byte key (AES-128) or a 32-byte key (AES-256) and a 16-byte IV, got \(key.count) and \(iv.count) bytes")
        }
        guard let cipher = fetched else {
            throw OpenSSLError(operation: operation, reason: "\(algorithm) is not available from the loaded OpenSSL providers")
        }
        return try CBCCipher.run(cipher, name: algorithm, blockLength: blockLength, operation, input, key: key, iv: iv)
    }
}
