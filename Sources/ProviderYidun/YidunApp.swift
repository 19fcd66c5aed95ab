import OpenSSLCrypto
import PassgateCore

/// One NetEase Yidun app's credentials, as configured. Secrets are resolved values.
public struct YidunApp: ProviderApp {
    /// The name clients send (Passgate's; Yidun knows the app by its business id).
    public let appId: String
    /// The one-click login business's id from the Yidun console.
    public let businessId: String
    /// The product key's id, sent in every request.
    public let secretId: String
    /// The product key's secret, which ends the MD5 signature's input and is never sent.
    public let secretKey: String

    public init(appId: String, businessId: String, secretId: String, secretKey: String) {
        self.appId = appId
        self.businessId = businessId
        self.secretId = secretId
        self.secretKey = secretKey
    }

    /// A digest of the settings and credentials.
    public var fingerprint: [UInt8] {
        let fields = [Yidun.providerID, appId, businessId, secretId, secretKey]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
