import OpenSSLCrypto
import PassgateCore

/// One Alibaba Cloud (Dypnsapi) app's credentials, as configured. Secrets are resolved values.
public struct AliyunApp: ProviderApp {
    /// The name clients send (Alibaba Cloud knows the caller by its AccessKey).
    public let appId: String
    public let accessKeyId: String
    public let accessKeySecret: String
    /// `RegionId`, `cn-hangzhou` unless configured.
    public let regionId: String

    public init(appId: String, accessKeyId: String, accessKeySecret: String, regionId: String = "cn-hangzhou") {
        self.appId = appId
        self.accessKeyId = accessKeyId
        self.accessKeySecret = accessKeySecret
        self.regionId = regionId
    }

    /// A digest of the settings and credentials.
    public var fingerprint: [UInt8] {
        let fields = [Aliyun.providerID, appId, accessKeyId, accessKeySecret, regionId]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
