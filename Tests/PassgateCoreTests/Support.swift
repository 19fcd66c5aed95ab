import OpenSSLCrypto
import PassgateTestSupport

/// The process's shared test keys (``TestRSAKeys``): an app's key and a different one.
enum Fixtures {
    static var appKey: RSAPrivateKey { TestRSAKeys.primary }
    static var otherKey: RSAPrivateKey { TestRSAKeys.secondary }
}
