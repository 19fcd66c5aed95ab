import OpenSSLCrypto
import PassgateCore

/// One Geetest OneLogin/OnePass app's credentials, as configured. Secrets are resolved values.
public struct GeetestApp: ProviderApp {
    /// Geetest's `app_id`, which clients send as the appId and every request signs.
    public let appId: String
    /// The console's `app_key`: the HMAC-SHA256 key of every `sign`, and (its 32 bytes as they
    /// are) the AES-256-CBC key of an encrypted number.
    public let appKey: String
    /// Whether numbers are asked for encrypted (`is_phone_encode`), so they cross no proxy in clear.
    public let encryptNumber: Bool

    public init(appId: String, appKey: String, encryptNumber: Bool = true) {
        self.appId = appId
        self.appKey = appKey
        self.encryptNumber = encryptNumber
    }

    /// A digest of the settings and credentials.
    public var fingerprint: [UInt8] {
        let fields = [Geetest.providerID, appId, appKey, String(encryptNumber)]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }

    public var redactedFields: [(label: String, value: String)] { [("appId", appId), ("encryptNumber", String(encryptNumber))] }
}
