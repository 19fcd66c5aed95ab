import OpenSSLCrypto
import PassgateCore

/// One JVerification app's credentials, as configured. Secrets are resolved values.
public struct JVerificationApp: ProviderApp {
    /// The appId clients send (Passgate's name for the app; JVerification knows it by `appKey`).
    public let appId: String
    /// The app's appKey from the JiGuang console.
    public let appKey: String
    /// The app's Master Secret, the password of HTTP Basic authentication.
    public let masterSecret: String
    /// Decrypts the numbers JVerification returns (its public half is uploaded in the console);
    /// without it the app can verify numbers but not get them.
    public let privateKey: RSAPrivateKey?
    /// 1, or 2 for the v2 login API that also answers a risk score.
    public let apiVersion: Int

    public init(appId: String, appKey: String, masterSecret: String, privateKey: RSAPrivateKey?, apiVersion: Int = 1) {
        self.appId = appId
        self.appKey = appKey
        self.masterSecret = masterSecret
        self.privateKey = privateKey
        self.apiVersion = apiVersion
    }

    /// A digest of the settings and credentials (the key by its public half).
    public var fingerprint: [UInt8] {
        let key = privateKey.flatMap { try? $0.publicKey.der() } ?? []
        let fields = [JVerification.providerID, appId, appKey, masterSecret, String(apiVersion), Hex.lowercase(key)]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
