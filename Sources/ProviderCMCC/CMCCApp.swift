import OpenSSLCrypto
import PassgateCore

/// One CMCC app's credentials, as configured. Secrets are resolved values, never references.
public struct CMCCApp: ProviderApp {
    /// How login requests are signed (`signMode` in the configuration).
    public enum SignMode: String, Sendable, CaseIterable { case md5, rsa }

    /// Why an app cannot be made; the configuration reader reports the same problems with key paths.
    public struct InvalidCredentials: Error, Sendable, Equatable, CustomStringConvertible {
        public let appId: String
        public let problem: String
        public var description: String { "app \(appId): \(problem)" }
    }

    public let appId: String
    /// How login requests are signed (MD5 with the APPSecret/appKey, or SHA256withRSA).
    public let login: CMCCLoginSigning
    /// How number-verification requests are signed; `nil` when the app has no appKey configured.
    public let verify: CMCCVerifyKeying?

    public init(appId: String, login: CMCCLoginSigning, verify: CMCCVerifyKeying?) {
        self.appId = appId
        self.login = login
        self.verify = verify
    }

    /// An app from its configured fields, checked: one that cannot sign is never made, so no
    /// request can find it unable to (RSA needs a key, MD5 a non-empty secret, an appKey is never empty).
    public init(appId: String, signMode: SignMode, secret: String? = nil, appKey: String? = nil, privateKey: RSAPrivateKey? = nil) throws(InvalidCredentials) {
        let login: CMCCLoginSigning
        switch signMode {
        case .md5:
            guard let secret, !secret.isEmpty else {
                throw InvalidCredentials(appId: appId, problem: "signMode md5 needs a non-empty secret (the APPSecret)")
            }
            login = .md5(secret: secret)
        case .rsa:
            guard let privateKey else { throw InvalidCredentials(appId: appId, problem: "signMode rsa needs a privateKey") }
            login = .rsa(privateKey: privateKey)
        }
        if let appKey, appKey.isEmpty { throw InvalidCredentials(appId: appId, problem: "appKey is empty: leave it out, or set the app's appKey") }
        self.init(appId: appId, login: login, verify: appKey.map { .appKey($0) })
    }

    public var signMode: SignMode {
        if case .rsa = login { return .rsa }
        return .md5
    }

    /// The MD5-mode sign secret.
    public var secret: String? {
        if case .md5(let secret) = login { return secret }
        return nil
    }

    /// The number-verification HMAC key.
    public var appKey: String? {
        switch verify {
        case .appKey(let key)?, .rsa(let key, _, _)?: key
        case nil: nil
        }
    }

    /// The RSA-mode private key.
    public var privateKey: RSAPrivateKey? { decryptionKey }

    /// The key that decrypts RSA-mode msisdns (the signing key: CMCC lets both be one pair).
    var decryptionKey: RSAPrivateKey? {
        if case .rsa(let key) = login { return key }
        return nil
    }

    /// The sign mode and whether verification is keyed, never the secret, the appKey or the key.
    public var redactedFields: [(label: String, value: String)] {
        [("appId", appId), ("signMode", signMode.rawValue), ("verify", verify?.description ?? "none")]
    }

    /// A digest of the settings and credentials (the key by its public half): a digest, so no
    /// secret is copied around for a comparison.
    public var fingerprint: [UInt8] {
        let key = privateKey.flatMap { try? $0.publicKey.der() } ?? []
        let fields = [appId, signMode.rawValue, secret ?? "", appKey ?? "", Hex.lowercase(key)]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
