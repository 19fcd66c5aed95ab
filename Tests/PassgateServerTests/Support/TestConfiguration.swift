import PassgateCore
import ProviderCMCC
import Logging
import OpenSSLCrypto
import PassgateConfig
import PassgateTestSupport

/// Configurations for end-to-end tests: ephemeral ports, distinctive secrets (so log checks can
/// look for them), three apps and two clients.
enum TestConfiguration {
    static let apiKey = "pg-test-key-7c1d9e"
    static let otherApiKey = "pg-test-other-key-55aa"
    /// A second caller of the MD5 app: its requests have their own replay keys.
    static let secondShopApiKey = "pg-test-shop2-key-9f00"
    static let md5App = "300011111111"
    static let rsaApp = "300022222222"
    static let secondMD5App = "300033333333"
    static let md5Secret = "SECRETmd5A1b2C3d4E5f6A7b8C9d0E1f2"
    static let secondSecret = "SECRETmd5ZZZZ9999YYYY8888XXXX7777"
    static let appKey = "APPKEYhmac123456"
    static var rsaKey: RSAPrivateKey { TestRSAKeys.primary }

    static func make(sandbox: Bool = true, baseURL: String? = nil, timeoutMs: Int = 3000) -> PassgateConfiguration {
        var configuration = PassgateConfiguration()
        configuration.registry = .testing
        configuration.server.port = 0
        configuration.metrics.port = 0
        configuration.server.maxBodyBytes = 4096
        configuration.log.level = .debug
        configuration.sandbox.enabled = sandbox
        configuration.sandbox.port = 0
        configuration.audit.enabled = false  // tests that audit give it a directory of their own
        var cmcc = ProviderSettings(id: CMCC.providerID, baseURLs: baseURL.map { [$0] } ?? [])
        cmcc.timeoutMs = timeoutMs
        cmcc.connectTimeoutMs = min(1000, timeoutMs - 1)
        configuration.providers = [CMCC.providerID: cmcc]
        configuration.apps = try! [
            CMCCApp(appId: md5App, signMode: .md5, secret: md5Secret, appKey: appKey),
            CMCCApp(appId: rsaApp, signMode: .rsa, appKey: appKey, privateKey: rsaKey),
            CMCCApp(appId: secondMD5App, signMode: .md5, secret: secondSecret),
        ].map { AppSettings(provider: CMCC.providerID, settings: $0) }
        configuration.clients = [
            ClientSettings(id: "shop", apiKeySHA256: hash(apiKey), apps: [md5App, rsaApp, secondMD5App]),
            ClientSettings(id: "other", apiKeySHA256: hash(otherApiKey), apps: [secondMD5App]),
            ClientSettings(id: "shop2", apiKeySHA256: hash(secondShopApiKey), apps: [md5App, rsaApp]),
        ]
        return configuration
    }

    /// The admin key `withAdmin` configures.
    static let adminKey = "pg-test-admin-key-31f0"

    /// `configuration` with the admin listener on an ephemeral port, for `/admin/readyz`.
    static func withAdmin(_ configuration: PassgateConfiguration) -> PassgateConfiguration {
        var configuration = configuration
        configuration.admin.port = 0
        configuration.admin.apiKeySHA256 = hash(adminKey)
        return configuration
    }

    static func hash(_ key: String) -> [UInt8] { try! Digest.sha256(Array(key.utf8)) }
}
