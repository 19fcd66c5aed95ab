import OpenSSLCrypto
import PassgateCore

/// One Umeng+ U-Verify app, as configured: Umeng's appkey, and the Alibaba Cloud Marketplace
/// credentials its API gateway signs with. Secrets are resolved values.
public struct UmengApp: ProviderApp {
    /// Umeng's `appkey` for the app (the query's `appkey`), also the name clients send.
    public let appId: String
    /// The Marketplace AppKey (`X-Ca-Key`).
    public let gatewayAppKey: String
    /// The Marketplace AppSecret: the HMAC-SHA256 key of `X-Ca-Signature`.
    public let gatewayAppSecret: String

    public init(appId: String, gatewayAppKey: String, gatewayAppSecret: String) {
        self.appId = appId
        self.gatewayAppKey = gatewayAppKey
        self.gatewayAppSecret = gatewayAppSecret
    }

    /// A digest of the settings and credentials.
    public var fingerprint: [UInt8] {
        let fields = [Umeng.providerID, appId, gatewayAppKey, gatewayAppSecret]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
