import OpenSSLCrypto
import PassgateCore

/// One MobTech SecVerify app's credentials, as configured. Secrets are resolved values.
public struct MobTechApp: ProviderApp {
    /// MobTech's `appkey` for the app, which is also the name clients send.
    public let appId: String
    /// The app's AppSecret: it keys the MD5 sign, and its first 8 bytes are the DES key of the number.
    public let appSecret: String

    public init(appId: String, appSecret: String) {
        self.appId = appId
        self.appSecret = appSecret
    }

    /// The DES key of the number: the AppSecret's first 8 bytes (the settings reader made sure it has them).
    public var desKey: [UInt8] { Array(appSecret.utf8.prefix(DESCBC.keyLength)) }

    /// A digest of the settings and credentials.
    public var fingerprint: [UInt8] {
        let fields = [MobTech.providerID, appId, appSecret]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
