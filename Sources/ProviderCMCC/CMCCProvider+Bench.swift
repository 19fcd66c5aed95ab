import PassgateCore

/// CMCC's bench load (bench/README.md): an MD5 app and an RSA app, and the three judged modes -
/// MD5 and RSA phone-number exchanges and MD5 number verification - at every load the bench has.
/// The credentials are made up for the bench's own sandbox.
extension CMCCProvider: BenchDescribing {
    static let benchMD5App = "300011111111"
    static let benchRSAApp = "300022222222"

    public var benchLoad: BenchLoad {
        let md5 = Self.benchMD5App, rsa = Self.benchRSAApp
        return BenchLoad(
            apps: [
                BenchApp(appId: md5, settings: [
                    BenchSetting("signMode", .plain("md5")),
                    BenchSetting("secret", .secret("6A0F3C9E1B7D45A8C2E9F0B4D7A13C5E")),
                    BenchSetting("appKey", .secret("B3E7C1A95D2F8046")),
                ]),
                BenchApp(appId: rsa, settings: [
                    BenchSetting("signMode", .plain("rsa")),
                    BenchSetting("privateKey", .freshRSAKey),
                    BenchSetting("appKey", .secret("4D9A2E7C0F5B1386")),
                ]),
            ],
            scenarios: [
                BenchScenario(
                    name: "md5", label: "MD5 mode", operation: .phoneNumber, appId: md5,
                    upstream: "CMCC's loginTokenValidate with a unique msgid, a current Beijing timestamp and its MD5 sign",
                    upstreamSuccess: #""resultCode":"103000""#, coverage: .everyLoad),
                BenchScenario(
                    name: "rsa", label: "RSA mode (2048-bit)", operation: .phoneNumber, appId: rsa,
                    upstream: "CMCC's loginTokenValidate with its SHA256withRSA sign (the sandbox verifies it and encrypts the number to the app's key)",
                    upstreamSuccess: #""resultCode":"103000""#, privateKeyOperations: 2, coverage: .everyLoad),
                BenchScenario(
                    name: "verify", label: "number verification", operation: .verify, appId: md5,
                    upstream: "CMCC's tokenValidate (number verification) with its HMAC-SHA256 sign",
                    upstreamSuccess: #""resultCode":"000""#, coverage: .everyLoad),
            ])
    }
}
