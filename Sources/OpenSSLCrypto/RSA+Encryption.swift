import COpenSSL

/// RSAES-PKCS1-v1_5 adds at least 11 bytes of padding.
let pkcs1PaddingOverhead = 11

extension RSAPublicKey {
    /// Largest plaintext `encrypt` accepts.
    public var maxPlaintextLength: Int { key.maxOutputSize - pkcs1PaddingOverhead }

    /// RSAES-PKCS1-v1_5 encryption (randomised: two calls give different ciphertexts).
    public func encrypt(_ plaintext: some Sequence<UInt8>) throws -> [UInt8] {
        let plaintext = Array(plaintext)
        guard plaintext.count <= maxPlaintextLength else {
            throw OpenSSLError(
                operation: .encrypt,
                reason: "plaintext of \(plaintext.count) bytes exceeds \(maxPlaintextLength), the limit for a \(bits)-bit key"
            )
        }
        return try withPKCS1Context(key, operation: .encrypt) { context in
            var length = key.maxOutputSize
            var output = [UInt8](repeating: 0, count: length)
            guard EVP_PKEY_encrypt(context, &output, &length, plaintext, plaintext.count) == 1 else {
                throw OpenSSLErrorQueue.failure(.encrypt, "RSA PKCS#1 v1.5 encryption failed")
            }
            return Array(output.prefix(length))
        }
    }
}

extension RSAPrivateKey {
    /// RSAES-PKCS1-v1_5 decryption.
    ///
    /// From OpenSSL 3.2 a ciphertext made for another key may "decrypt" to random bytes instead
    /// of failing (implicit rejection): callers must validate the plaintext.
    public func decrypt(_ ciphertext: [UInt8]) throws -> [UInt8] {
        guard ciphertext.count == key.maxOutputSize else {
            throw OpenSSLError(
                operation: .decrypt,
                reason: "ciphertext is \(ciphertext.count) bytes; a \(bits)-bit key needs exactly \(key.maxOutputSize) (wrong key, or truncated/mis-encoded input)"
            )
        }
        return try withPKCS1Context(key, operation: .decrypt) { context in
            var length = key.maxOutputSize
            var output = [UInt8](repeating: 0, count: length)
            guard EVP_PKEY_decrypt(context, &output, &length, ciphertext, ciphertext.count) == 1 else {
                throw OpenSSLErrorQueue.failure(.decrypt, "RSA PKCS#1 v1.5 decryption failed (ciphertext made for another key?)")
            }
            return Array(output.prefix(length))
        }
    }
}

/// One `EVP_PKEY_CTX` per operation, set up for PKCS#1 v1.5 padding, freed afterwards.
private func withPKCS1Context<T>(
    _ key: EVPKey, operation: OpenSSLError.Operation, _ body: (OpaquePointer) throws -> T
) throws -> T {
    try OpenSSLErrorQueue.run {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw OpenSSLErrorQueue.failure(operation, "out of memory")
        }
        defer { EVP_PKEY_CTX_free(context) }
        let initialised = operation == .encrypt ? EVP_PKEY_encrypt_init(context) : EVP_PKEY_decrypt_init(context)
        guard initialised == 1, EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1 else {
            throw OpenSSLErrorQueue.failure(operation, "cannot initialise RSA PKCS#1 v1.5 \(operation.rawValue)ion")
        }
        return try body(context)
    }
}
