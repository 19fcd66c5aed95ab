import OpenSSLCrypto

/// One app the sandbox knows, with the credentials a real CMCC console would hold for it.
///
/// A sandbox app verifies what the matching Passgate app sends: the MD5 secret for
/// `loginTokenValidate` in MD5 mode, the public half of the RSA signing key in RSA mode, and the
/// appKey for `tokenValidate` (keyType 0).
public struct SandboxApp: Sendable {
    /// The CMCC appid, compared exactly (a stray space makes it unknown, as at the carrier: 103119).
    public var appId: String
    /// The APPSecret (or legacy appKey) that keys the MD5 sign of `loginTokenValidate`;
    /// `nil` rejects MD5-mode requests with 103101.
    public var md5Secret: String?
    /// The appKey that keys the HMAC-SHA256 sign and the phone digest of `tokenValidate` (keyType 0);
    /// `nil` rejects every number-verification sign with 302.
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
        appId: String, md5Secret: String? = nil, appKey: String? = nil, signingKey: RSAPublicKey? = nil,
        encryptionKey: RSAPublicKey? = nil, loginEnabled: Bool = true, verifyEnabled: Bool = true, quota: Int? = nil
    ) {
        self.appId = appId
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
