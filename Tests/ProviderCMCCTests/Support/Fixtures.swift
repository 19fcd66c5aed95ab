import PassgateCore
import ProviderCMCC
import Foundation
import OpenSSLCrypto

/// The process's shared test keys (``TestRSAKeys``).
enum Fixtures {
    static var appKey: RSAPrivateKey { TestRSAKeys.primary }
    static var otherKey: RSAPrivateKey { TestRSAKeys.secondary }
    static var platformKey: RSAPrivateKey { TestRSAKeys.primary1024 }

    static let md5App = CMCCApp(appId: "300011111111", login: .md5(secret: "0123456789ABCDEF0123456789ABCDEF"), verify: .appKey("ABCDEF0123456789"))
    static var rsaApp: CMCCApp { CMCCApp(appId: "300022222222", login: .rsa(privateKey: appKey), verify: nil) }
    static let endpoint = ProviderEndpoint(baseURL: "https://carrier.test/", connectTimeoutMs: 500, timeoutMs: 1500)

    /// JSON text -> bytes.
    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Parses a request body the way a carrier would.
    static func object(_ body: [UInt8]) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }
}

import Testing
import PassgateTestSupport
