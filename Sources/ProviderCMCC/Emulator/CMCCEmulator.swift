import OpenSSLCrypto
import PassgateCore

/// CMCC's servers as the sandbox plays them: `loginTokenValidate` and `tokenValidate` exactly as
/// docs/cmcc.md describes (signatures, Beijing-time checks, unique msgids, single use, expiry,
/// whitelist, quotas, RSA-encrypted msisdn), with CMCC's result codes.
public struct CMCCEmulator: ProviderEmulator {
    /// What CMCC's console holds for an app.
    ///
    /// It verifies what the matching Passgate app sends: the MD5 secret for `loginTokenValidate`
    /// in MD5 mode, the public half of the RSA signing key in RSA mode, and the appKey for
    /// `tokenValidate` (keyType 0).
    public struct Credentials: EmulatedCredentials {
        /// The APPSecret (or legacy appKey) that keys the MD5 sign of `loginTokenValidate`;
        /// `nil` rejects MD5-mode requests with 103101.
        public var md5Secret: String?
        /// The appKey that keys the HMAC-SHA256 sign and the phone digest of `tokenValidate`
        /// (keyType 0); `nil` rejects every number-verification sign with 302.
        public var appKey: String?
        /// Verifies the RSA-mode SHA256withRSA sign over `appid + token`; `nil` rejects RSA mode with 103101.
        public var signingKey: RSAPublicKey?
        /// Encrypts the RSA-mode `msisdn`; `nil` uses ``signingKey`` (the console allows one pair for both).
        public var encryptionKey: RSAPublicKey?

        /// CMCC knows an app by its appid.
        public var accountKey: String? { nil }
        /// The key the RSA-mode `msisdn` is encrypted to.
        var msisdnKey: RSAPublicKey? { encryptionKey ?? signingKey }

        public init(md5Secret: String? = nil, appKey: String? = nil, signingKey: RSAPublicKey? = nil, encryptionKey: RSAPublicKey? = nil) {
            self.md5Secret = md5Secret
            self.appKey = appKey
            self.signingKey = signingKey
            self.encryptionKey = encryptionKey
        }
    }

    public init() {}

    public var providerID: String { CMCC.providerID }

    public var routes: [EmulatorRoute] {
        [EmulatorRoute(path: CMCCLoginRequest.path, product: .login), EmulatorRoute(path: CMCCVerifyRequest.path, product: .verify)]
    }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? CMCCApp else { return nil }
        return Self.app(
            appId: app.appId, md5Secret: app.secret, appKey: app.appKey, signingKey: app.privateKey?.publicKey,
            encryptionKey: app.privateKey?.publicKey)
    }

    /// A CMCC app as its console would hold it; only `appId` is required, every capability is on
    /// and the quota unlimited.
    public static func app(
        appId: String, md5Secret: String? = nil, appKey: String? = nil, signingKey: RSAPublicKey? = nil, encryptionKey: RSAPublicKey? = nil,
        loginEnabled: Bool = true, verifyEnabled: Bool = true, quota: Int? = nil
    ) -> EmulatedApp {
        EmulatedApp(
            appId: appId, provider: CMCC.providerID,
            credentials: Credentials(md5Secret: md5Secret, appKey: appKey, signingKey: signingKey, encryptionKey: encryptionKey),
            loginEnabled: loginEnabled, verifyEnabled: verifyEnabled, quota: quota)
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer {
        call.product == .login ? login(call) : verify(call)
    }

    public func forcedCodeProblem(_ code: String) -> String? {
        EmulatorChecks.numericCodeProblem(code)
    }
}

extension CMCCProvider {
    /// The sandbox's CMCC.
    public var emulator: (any ProviderEmulator)? { CMCCEmulator() }
}
