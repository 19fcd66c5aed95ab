import OpenSSLCrypto
import PassgateCore

/// One Shanyan app's credentials, as configured. Secrets are resolved values.
public struct ShanyanApp: ProviderApp {
    /// How `sign` is written: Shanyan's documentation shows upper case, its own PHP and Go clients
    /// send lower case; which one the server insists on is not documented.
    public enum SignCase: String, Sendable, CaseIterable { case lower, upper }

    /// Shanyan's appId, which is also what clients send.
    public let appId: String
    /// The app's appKey: the HMAC key of `sign`, and (through its MD5) the AES key of the number.
    public let appKey: String
    /// With a key, the number comes back RSA-encrypted (`encryptType=1`); without, AES (`0`).
    public let privateKey: RSAPrivateKey?
    public let signCase: SignCase

    public init(appId: String, appKey: String, privateKey: RSAPrivateKey? = nil, signCase: SignCase = .lower) {
        self.appId = appId
        self.appKey = appKey
        self.privateKey = privateKey
        self.signCase = signCase
    }

    /// A digest of the settings and credentials (the key by its public half).
    public var fingerprint: [UInt8] {
        let key = privateKey.flatMap { try? $0.publicKey.der() } ?? []
        let fields = [Shanyan.providerID, appId, appKey, signCase.rawValue, Hex.lowercase(key)]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
