import OpenSSLCrypto
import PassgateCore

/// One Tencent Cloud number-authentication app's credentials, as configured. Secrets are
/// resolved values.
public struct TencentApp: ProviderApp {
    /// The app's `sdkappid`, sent in every request's query.
    public let appId: String
    /// The app's AppKey, which the plain SHA-256 `sig` covers; never sent.
    public let appKey: String

    public init(appId: String, appKey: String) {
        self.appId = appId
        self.appKey = appKey
    }

    /// A digest of the settings and credentials.
    public var fingerprint: [UInt8] {
        let fields = [Tencent.providerID, appId, appKey]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
