import COpenSSL
import Foundation

extension RSAPrivateKey {
    /// The key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), what the carriers' docs call for.
    public func pkcs8PEM() throws -> String {
        try OpenSSLErrorQueue.run {
            try withMemoryBIO(operation: .keyExport) { bio in
                PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil) == 1
            }
        }
    }
}

extension RSAPublicKey {
    /// SubjectPublicKeyInfo DER.
    public func der() throws -> [UInt8] {
        try OpenSSLErrorQueue.run {
            var buffer: UnsafeMutablePointer<UInt8>?
            let length = i2d_PUBKEY(key.pointer, &buffer)
            guard length > 0, let buffer else { throw OpenSSLErrorQueue.failure(.keyExport, "cannot encode the public key") }
            defer { COpenSSL_free(buffer) }
            return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
        }
    }

    /// Single-line base64 of the SubjectPublicKeyInfo DER: what the CMCC console asks for.
    public func base64DER() throws -> String {
        Data(try der()).base64EncodedString()
    }

    /// The key as PEM (`-----BEGIN PUBLIC KEY-----`).
    public func pem() throws -> String {
        try OpenSSLErrorQueue.run {
            try withMemoryBIO(operation: .keyExport) { bio in PEM_write_bio_PUBKEY(bio, key.pointer) == 1 }
        }
    }
}

/// Runs `write` against a fresh memory BIO and returns what it wrote as text.
private func withMemoryBIO(operation: OpenSSLError.Operation, _ write: (OpaquePointer) -> Bool) throws -> String {
    guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrorQueue.failure(operation, "out of memory") }
    defer { BIO_free(bio) }
    guard write(bio) else { throw OpenSSLErrorQueue.failure(operation, "cannot write the key as PEM") }
    var data: UnsafeMutablePointer<CChar>?
    let length = COpenSSL_BIO_get_mem_data(bio, &data)
    guard length > 0, let data else { throw OpenSSLErrorQueue.failure(operation, "the PEM writer produced nothing") }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
}
