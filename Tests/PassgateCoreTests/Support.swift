import OpenSSLCrypto

/// Keys generated once per test process (2048-bit generation takes ~100 ms).
enum Fixtures {
    static let appKey: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 2048)
    static let otherKey: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 2048)
}
