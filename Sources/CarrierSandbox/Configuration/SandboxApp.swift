import OpenSSLCrypto

/// One app the sandbox knows, with the credentials a real provider console would hold for it.
///
/// A CMCC app verifies what the matching Passgate app sends: the MD5 secret for
/// `loginTokenValidate` in MD5 mode, the public half of the RSA signing key in RSA mode, and the
/// appKey for `tokenValidate` (keyType 0). A JVerification app checks HTTP Basic authentication
/// (`appKey`, `masterSecret`) and encrypts numbers to `encryptionKey`.
public struct SandboxApp: Sendable {
    /// The appid tokens are minted for: CMCC's appid, compared exactly (a stray space makes it
    /// unknown, as at the carrier: 103119); for an aggregator, the name Passgate's app has.
    public var appId: String
    /// The provider whose server this app lives on (`cmcc`, `jverification`).
    public var provider: String
    /// JVerification's Master Secret (the Basic authentication password), or Alibaba Cloud's
    /// AccessKey secret (whose AccessKey ID is then `appKey`).
    public var masterSecret: String?
    /// The APPSecret (or legacy appKey) that keys the MD5 sign of `loginTokenValidate`;
    /// `nil` rejects MD5-mode requests with 103101.
    public var md5Secret: String?
    /// CMCC: the appKey that keys the HMAC-SHA256 sign and the phone digest of `tokenValidate`
    /// (keyType 0; `nil` rejects every number-verification sign with 302). JVerification and
    /// Shanyan: the app's appKey. Alibaba Cloud: the AccessKey ID.
    public var appKey: String?
    /// Verifies the RSA-mode SHA256withRSA sign over `appid + token`; `nil` rejects RSA mode with 103101.
    public var signingKey: RSAPublicKey?
    /// Encrypts the RSA-mode `msisdn`; `nil` uses ``signingKey`` (the console allows one pair for both).
    public var encryptionKey: RSAPublicKey?
    /// Whether one-click login is enabled; `false` answers 105019 once the token checks passed.
    public var loginEnabled: Bool
    /// Whether number verification is enabled; `false` answers 103420.
    public var verifyEnabled: Bool
    /// Remaining billable calls (`nil` = unlimited). Shared by both products; at 0 the sandbox
    /// answers 105312 (login) or 102315 (verification).
    public var quota: Int?

    /// An app; only `appId` is required, every capability is on and the quota unlimited.
    public init(
        appId: String, provider: String = "cmcc", md5Secret: String? = nil, appKey: String? = nil, masterSecret: String? = nil,
        signingKey: RSAPublicKey? = nil, encryptionKey: RSAPublicKey? = nil, loginEnabled: Bool = true, verifyEnabled: Bool = true,
        quota: Int? = nil
    ) {
        self.appId = appId
        self.provider = provider
        self.masterSecret = masterSecret
        self.md5Secret = md5Secret
        self.appKey = appKey
        self.signingKey = signingKey
        self.encryptionKey = encryptionKey
        self.loginEnabled = loginEnabled
        self.verifyEnabled = verifyEnabled
        self.quota = quota
    }

    /// The key the RSA-mode `msisdn` is encrypted to.
    var msisdnKey: RSAPublicKey? { encryptionKey ?? signingKey }
}
