import PassgateCore
import ProviderCMCC
import CarrierSandbox
import OpenSSLCrypto
import PassgateTestSupport

/// Apps, keys and numbers shared by the tests. Keys are generated once per process.
enum Fixtures {
    static let md5AppId = "300011111111"
    static let rsaAppId = "300022222222"
    static let otherAppId = "300033333333"
    /// The APPSecret of the MD5 test vector in docs/cmcc.md ("Signing").
    static let secret = "0123456789ABCDEF0123456789ABCDEF"
    /// The appKey of the tokenValidate test vector.
    static let appKey = "ABCDEF0123456789"
    static let phone = "13800138000"
    static let otherPhone = "13900139000"

    static var rsaKey: RSAPrivateKey { TestRSAKeys.primary }
    static var strangerKey: RSAPrivateKey { TestRSAKeys.secondary }

    /// 2019-02-26 11:18:42.617 Beijing time, the MD5 vector's systemtime.
    static let vectorTimeMs: Int64 = 1_551_151_122_617

    static var apps: [EmulatedApp] {
        [
            CMCCEmulator.app(appId: md5AppId, md5Secret: secret, appKey: appKey),
            CMCCEmulator.app(appId: rsaAppId, appKey: appKey, signingKey: rsaKey.publicKey),
            CMCCEmulator.app(appId: otherAppId, md5Secret: secret, appKey: appKey),
        ]
    }

    /// Passgate's view of the MD5 app (what `CMCCLoginRequest` signs with).
    static let md5Signing = CMCCLoginSigning.md5(secret: secret)
    static var rsaSigning: CMCCLoginSigning { .rsa(privateKey: rsaKey) }
}
