import COpenSSL

/// AES-256-GCM through OpenSSL 3's EVP interface, for secrets at rest (values kept in Redis).
///
/// Sealed layout: `nonce (12 bytes, random) || ciphertext || tag (16 bytes)`. A random 96-bit
/// nonce per message is safe for up to about 2^32 messages under one key.
public enum AESGCM {
    /// Key length in bytes (AES-256).
    public static let keyLength = 32
    /// Nonce length in bytes, the GCM default.
    public static let nonceLength = 12
    /// Authentication tag length in bytes.
    public static let tagLength = 16
    /// Bytes a sealed message adds to its plaintext.
    public static let overhead = nonceLength + tagLength

    /// Encrypts and authenticates `plaintext` (and authenticates `associatedData`) under `key`.
    /// - Throws: `OpenSSLError` (`.encrypt`) for a key that is not 32 bytes or an OpenSSL failure.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] {
        guard key.count == keyLength else {
            throw OpenSSLError(operation: .encrypt, reason: "AES-256-GCM needs a \(keyLength)-byte key, got \(key.count) bytes")
        }
        let cipher = try fetchedCipher(.encrypt)
        let nonce = try SecureRandom.bytes(count: nonceLength)
        return try OpenSSLErrorQueue.run {
            let ctx = try newContext(.encrypt)
            defer { EVP_CIPHER_CTX_free(ctx) }
            guard EVP_EncryptInit_ex2(ctx, cipher, key, nonce, nil) == 1 else {
                throw OpenSSLErrorQueue.failure(.encrypt, "AES-256-GCM encryption could not be initialised")
            }
            var length: Int32 = 0
            if !associatedData.isEmpty {
                guard EVP_EncryptUpdate(ctx, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                    throw OpenSSLErrorQueue.failure(.encrypt, "AES-256-GCM rejected the associated data")
                }
            }
            // GCM is a stream mode: the ciphertext is exactly as long as the plaintext.
            var output = [UInt8](repeating: 0, count: nonceLength + plaintext.count + tagLength)
            try output.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress! + nonceLength
                var written = 0
                if !plaintext.isEmpty {
                    guard EVP_EncryptUpdate(ctx, base, &length, plaintext, Int32(plaintext.count)) == 1 else {
                        throw OpenSSLErrorQueue.failure(.encrypt, "AES-256-GCM encryption failed")
                    }
                    written = Int(length)
                }
                guard EVP_EncryptFinal_ex(ctx, base + written, &length) == 1 else {
                    throw OpenSSLErrorQueue.failure(.encrypt, "AES-256-GCM encryption could not be finished")
                }
                written += Int(length)
                guard written == plaintext.count else {
                    throw OpenSSLError(operation: .encrypt, reason: "AES-256-GCM wrote \(written) bytes for \(plaintext.count)")
                }
                guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, Int32(tagLength), base + written) == 1 else {
                    throw OpenSSLErrorQueue.failure(.encrypt, "AES-256-GCM did not produce a tag")
                }
            }
            output.replaceSubrange(0..<nonceLength, with: nonce)
            return output
        }
    }

    /// Checks and decrypts a message made by ``seal(_:key:associatedData:)``.
    /// - Throws: `OpenSSLError` (`.decrypt`) when the message is too short, was altered, or was
    ///   sealed under another key or associated data (these cases are indistinguishable).
    public static func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] {
        guard key.count == keyLength else {
            throw OpenSSLError(operation: .decrypt, reason: "AES-256-GCM needs a \(keyLength)-byte key, got \(key.count) bytes")
        }
        guard sealed.count >= overhead else {
            throw OpenSSLError(
                operation: .decrypt, reason: "sealed message is \(sealed.count) bytes, shorter than nonce and tag (\(overhead))")
        }
        let cipher = try fetchedCipher(.decrypt)
        let nonce = Array(sealed[0..<nonceLength])
        let ciphertext = Array(sealed[nonceLength..<(sealed.count - tagLength)])
        var tag = Array(sealed[(sealed.count - tagLength)...])
        return try OpenSSLErrorQueue.run {
            let ctx = try newContext(.decrypt)
            defer { EVP_CIPHER_CTX_free(ctx) }
            guard EVP_DecryptInit_ex2(ctx, cipher, key, nonce, nil) == 1 else {
                throw OpenSSLErrorQueue.failure(.decrypt, "AES-256-GCM decryption could not be initialised")
            }
            var length: Int32 = 0
            if !associatedData.isEmpty {
                guard EVP_DecryptUpdate(ctx, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                    throw OpenSSLErrorQueue.failure(.decrypt, "AES-256-GCM rejected the associated data")
                }
            }
            var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
            try plaintext.withUnsafeMutableBufferPointer { buffer in
                var written = 0
                if !ciphertext.isEmpty {
                    guard EVP_DecryptUpdate(ctx, buffer.baseAddress, &length, ciphertext, Int32(ciphertext.count)) == 1 else {
                        throw OpenSSLErrorQueue.failure(.decrypt, "AES-256-GCM decryption failed")
                    }
                    written = Int(length)
                }
                guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, Int32(tagLength), &tag) == 1 else {
                    throw OpenSSLErrorQueue.failure(.decrypt, "AES-256-GCM did not accept the tag")
                }
                // Final checks the tag; a scratch byte keeps the pointer valid for empty messages.
                var scratch = [UInt8](repeating: 0, count: 16)
                guard EVP_DecryptFinal_ex(ctx, &scratch, &length) == 1 else {
                    throw OpenSSLErrorQueue.failure(
                        .decrypt, "AES-256-GCM authentication failed: the data was altered, or the key or associated data differ")
                }
                guard written == ciphertext.count, length == 0 else {
                    throw OpenSSLError(operation: .decrypt, reason: "AES-256-GCM wrote \(written) bytes for \(ciphertext.count)")
                }
            }
            return plaintext
        }
    }

    private static func fetchedCipher(_ operation: OpenSSLError.Operation) throws -> OpaquePointer {
        guard let cipher = FetchedAlgorithms.shared.aes256GCM else {
            throw OpenSSLError(operation: operation, reason: "AES-256-GCM is not available from the loaded OpenSSL providers")
        }
        return cipher
    }

    private static func newContext(_ operation: OpenSSLError.Operation) throws -> OpaquePointer {
        guard let ctx = EVP_CIPHER_CTX_new() else {
            throw OpenSSLErrorQueue.failure(operation, "EVP_CIPHER_CTX_new failed (out of memory)")
        }
        return ctx
    }
}
