import COpenSSL

/// An RSA private key, loaded once and shared by any number of concurrent tasks.
///
/// Accepts PEM (`RSA PRIVATE KEY` = PKCS#1, `PRIVATE KEY` = PKCS#8) and bare base64 DER of
/// either, which is what carrier consoles hand out. 1024 to 4096 bits.
public struct RSAPrivateKey: Sendable {
    let key: EVPKey

    /// Key size in bits.
    public var bits: Int { key.bits }

    /// The public half (shares the loaded key).
    public var publicKey: RSAPublicKey { RSAPublicKey(key: key) }

    init(key: EVPKey) {
        self.key = key
    }

    /// Loads a private key from PEM text or bare base64 DER, detecting which.
    public init(text: String) throws {
        switch try KeyText.parse(text, kind: "private key") {
        case .pem(let label, let der):
            guard label == "PRIVATE KEY" || label == "RSA PRIVATE KEY" else {
                let hint = label.contains("PUBLIC") || label == "CERTIFICATE"
                    ? " (this is public material; the private key is needed)" : ""
                throw OpenSSLError(operation: .keyLoad, reason: "PEM block '\(label)' is not a private key\(hint)")
            }
            try self.init(der: der)
        case .der(let der):
            try self.init(der: der)
        }
    }

    /// Loads a private key from DER bytes (PKCS#1 `RSAPrivateKey` or PKCS#8 `PrivateKeyInfo`).
    public init(der: [UInt8]) throws {
        key = try OpenSSLErrorQueue.run {
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
            }
            guard let parsed else {
                // Drain before probing for a public key: that probe clears this thread's queue.
                let openSSLErrors = OpenSSLErrorQueue.drain()
                if (try? RSAPublicKey(der: der)) != nil {
                    throw OpenSSLError(operation: .keyLoad, reason: "this DER is a public key; the private key is needed")
                }
                throw OpenSSLError(
                    operation: .keyLoad, reason: "the private key DER is not a PKCS#1 or PKCS#8 private key", openSSLErrors: openSSLErrors
                )
            }
            return try EVPKey(taking: parsed).checkedRSA(kind: "private key")
        }
    }

    /// Generates a fresh key (public exponent 65537).
    public static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
        guard supportedRSABits.contains(bits) else {
            throw OpenSSLError(operation: .keyGenerate, reason: "\(bits) bits is outside the supported \(supportedRSABits.lowerBound)-\(supportedRSABits.upperBound)")
        }
        return try OpenSSLErrorQueue.run {
            guard let pointer = COpenSSL_generate_rsa(UInt32(bits)) else {
                throw OpenSSLErrorQueue.failure(.keyGenerate, "RSA key generation failed")
            }
            return RSAPrivateKey(key: EVPKey(taking: pointer))
        }
    }
}
