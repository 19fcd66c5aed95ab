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
    /// Where a reseller speaking JVerification's protocol takes the login call (Upyun's
    /// `https://sim-api.upyun.com/login/token/verify`); nil for JiGuang's own API.
    public let endpoint: Endpoint?

    /// A login endpoint of the app's own: a base URL and a path.
    public struct Endpoint: Sendable, Equatable {
        /// `https://host[:port]`; nil with the sandbox enabled, whose base URL then serves the path.
        public var baseURL: String?
        /// The login API's path, `/login/token/verify`.
        public var path: String

        public init(baseURL: String?, path: String) {
            self.baseURL = baseURL
            self.path = path
        }
    }

    public init(appId: String, appKey: String, masterSecret: String, privateKey: RSAPrivateKey?, apiVersion: Int = 1, endpoint: Endpoint? = nil) {
        self.appId = appId
        self.appKey = appKey
        self.masterSecret = masterSecret
        self.privateKey = privateKey
        self.apiVersion = apiVersion
        self.endpoint = endpoint
    }

    /// A digest of the settings and credentials (the key by its public half).
    public var fingerprint: [UInt8] {
        let key = privateKey.flatMap { try? $0.publicKey.der() } ?? []
        let fields = [
            JVerification.providerID, appId, appKey, masterSecret, String(apiVersion), Hex.lowercase(key), endpoint?.baseURL ?? "", endpoint?.path ?? "",
        ]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
