import PassgateCore
import OpenSSLCrypto

/// One CMCC app's credentials, as configured. Secrets are resolved values, never references.
public struct CMCCApp: Sendable {
    public var appId: String
    /// How login requests are signed (MD5 with the APPSecret/appKey, or SHA256withRSA).
    public var login: CMCCLoginSigning
    /// How number-verification requests are signed; `nil` when the app has no appKey configured.
    public var verify: CMCCVerifyKeying?

    public init(appId: String, login: CMCCLoginSigning, verify: CMCCVerifyKeying?) {
        self.appId = appId
        self.login = login
        self.verify = verify
    }

    /// The key that decrypts RSA-mode msisdns (the signing key: CMCC lets both be one pair).
    var decryptionKey: RSAPrivateKey? {
        if case .rsa(let key) = login { return key }
        return nil
    }
}

/// Where and how patiently to call CMCC.
public struct CMCCEndpoint: Sendable, Equatable {
    /// E.g. `https://www.cmpassport.com`, without a trailing slash.
    public var baseURL: String
    public var connectTimeoutMs: Int
    public var timeoutMs: Int

    public init(baseURL: String, connectTimeoutMs: Int = 1000, timeoutMs: Int = 3000) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.connectTimeoutMs = connectTimeoutMs
        self.timeoutMs = timeoutMs
    }

    /// The host part of `baseURL`, for messages and metrics.
    public var host: String {
        // Bytes, not Characters: read on every carrier call (metrics, logs).
        let utf8 = Array(baseURL.utf8)
        var start = 0
        if let index = (0..<max(0, utf8.count - 2)).first(where: { utf8[$0] == 58 && utf8[$0 + 1] == 47 && utf8[$0 + 2] == 47 }) {
            start = index + 3  // after "://"
        }
        let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.count
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
