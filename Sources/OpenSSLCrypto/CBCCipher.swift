import COpenSSL

/// One CBC encryption or decryption through EVP with PKCS padding, for the block ciphers a
/// provider protocol requires (`AESCBC`, `DESCBC`); they check lengths and fetch the cipher.
enum CBCCipher {
    /// Runs `cipher` (named `name` in messages) over `input`; the key and IV lengths are the caller's to check.
    static func run(
        _ cipher: OpaquePointer, name: String, blockLength: Int, _ operation: OpenSSLError.Operation, _ input: [UInt8], key: [UInt8], iv: [UInt8]
    ) throws -> [UInt8] {
        let encrypting: Int32 = operation == .encrypt ? 1 : 0
        let direction = operation == .encrypt ? "encryption" : "decryption"
        return try OpenSSLErrorQueue.run {
            guard let ctx = EVP_CIPHER_CTX_new() else {
                throw OpenSSLErrorQueue.failure(operation, "EVP_CIPHER_CTX_new failed (out of memory)")
            }
            defer { EVP_CIPHER_CTX_free(ctx) }
            guard EVP_CipherInit_ex2(ctx, cipher, key, iv, encrypting, nil) == 1 else {
                throw OpenSSLErrorQueue.failure(operation, "\(name) \(direction) could not be initialised")
            }
            var output = [UInt8](repeating: 0, count: input.count + blockLength)
            var written: Int32 = 0
            var final: Int32 = 0
            try output.withUnsafeMutableBufferPointer { buffer in
                guard EVP_CipherUpdate(ctx, buffer.baseAddress, &written, input, Int32(input.count)) == 1 else {
                    throw OpenSSLErrorQueue.failure(operation, "\(name) \(direction) failed")
                }
                guard EVP_CipherFinal_ex(ctx, buffer.baseAddress! + Int(written), &final) == 1 else {
                    throw OpenSSLErrorQueue.failure(
                        operation, operation == .encrypt ? "\(name) encryption could not be finished" : "\(name) padding is wrong: another key or IV, or an altered message")
                }
            }
            return Array(output[0..<Int(written + final)])
        }
    }
}
