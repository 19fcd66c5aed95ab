import OpenSSLCrypto
import PassgateCore

/// One Getui (个验) app's credentials, as configured. Secrets are resolved values.
public struct GetuiApp: ProviderApp {
    /// Getui's `appId`, which clients send as the appId and every request carries.
    public let appId: String
    /// The console's AppSecret: the start of the signed string.
    public let appSecret: String
    /// The console's MasterSecret: the end of the signed string, and (its first 16 bytes) the
    /// AES-128-CBC key of the number.
    public let masterSecret: String

    public init(appId: String, appSecret: String, masterSecret: String) {
        self.appId = appId
        self.appSecret = appSecret
        self.masterSecret = masterSecret
    }

    /// The number's AES-128 key: the MasterSecret's first 16 bytes.
    public var numberKey: [UInt8] { Array(masterSecret.utf8.prefix(16)) }

    /// A digest of the settings and credentials.
    public var fingerprint: [UInt8] {
        let fields = [Getui.providerID, appId, appSecret, masterSecret]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
