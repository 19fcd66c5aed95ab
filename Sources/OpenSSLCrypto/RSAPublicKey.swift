import COpenSSL

/// An RSA public key: what the carrier console holds for us, or the carrier's platform key.
///
/// Accepts PEM (`PUBLIC KEY` = SubjectPublicKeyInfo, `RSA PUBLIC KEY` = PKCS#1) and bare base64
/// DER of either.
public struct RSAPublicKey: Sendable {
    let key: EVPKey

    /// Key size in bits.
    public var bits: Int { key.bits }

    init(key: EVPKey) {
        self.key = key
    }

    /// Loads a public key from PEM text or bare base64 DER, detecting which.
    public init(text: String) throws {
        switch try KeyText.parse(text, kind: "public key") {
        case .pem(let label, let der):
            guard label == "PUBLIC KEY" || label == "RSA PUBLIC KEY" else {
                throw OpenSSLError(operation: .keyLoad, reason: "PEM block '\(label)' is not a public key")
            }
            try self.init(der: der)
        case .der(let der):
            try self.init(der: der)
        }
    }

    /// Loads a public key from DER: SubjectPublicKeyInfo first, then a bare PKCS#1 `RSAPublicKey`.
    public init(der: [UInt8]) throws {
        key = try OpenSSLErrorQueue.run {
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                if let spki = d2i_PUBKEY(nil, &cursor, buffer.count) { return spki }
                cursor = buffer.baseAddress
                return d2i_PublicKey(EVP_PKEY_RSA, nil, &cursor, buffer.count)
            }
            guard let parsed else {
                throw OpenSSLErrorQueue.failure(.keyLoad, "the public key DER is neither SubjectPublicKeyInfo nor PKCS#1 RSAPublicKey")
            }
            return try EVPKey(taking: parsed).checkedRSA(kind: "public key")
        }
    }
}
