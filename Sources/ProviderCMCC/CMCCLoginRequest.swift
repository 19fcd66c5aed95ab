import PassgateCore
import OpenSSLCrypto

/// How a `loginTokenValidate` request is signed (per app: `signMode` in the config).
public enum CMCCLoginSigning: Sendable, RedactedDescription {
    /// `sign = MD5(appid + version + msgid + systemtime + strictcheck + token + secret)`; the secret
    /// is the app's APPSecret, or the legacy appKey for apps never switched over.
    case md5(secret: String)
    /// `sign = hex(SHA256withRSA(privateKey, appid + token))`; the reply's msisdn is encrypted to
    /// the app's encryption key (which may be the same pair).
    case rsa(privateKey: RSAPrivateKey)
}

/// A signed `POST /unisdk/rsapi/loginTokenValidate` request (version 2.0).
public struct CMCCLoginRequest: Sendable, RedactedDescription {
    public static let path = "/unisdk/rsapi/loginTokenValidate"
    public static let version = "2.0"

    /// The request fields, in the documented order.
    public let json: JSONStringTree
    /// Our msgid, which the reply must echo in `inresponseto`.
    public let msgid: String
    /// The exact string that was signed, with any secret replaced by a placeholder: what an
    /// integrator compares against the carrier's expectations after a 103101. Made when asked
    /// (`passgate sign-login-token` asks; a served request never does).
    public var redactedSigningInput: String {
        switch signing {
        case .md5(let secret): signedWithoutSecret + Self.redacted(secret)
        case .rsa: signedWithoutSecret
        }
    }

    private let signing: CMCCLoginSigning
    /// What was signed, up to the secret the MD5 form appends.
    private let signedWithoutSecret: String

    /// The body to POST.
    public var body: [UInt8] { json.bytes }

    /// Builds and signs a request. `msgid` and `systemtime` are normally fresh; they are
    /// parameters so the CLI and the test vectors can pin them.
    public init(
        appId: String, token: String, signing: CMCCLoginSigning, msgid: String, systemtime: String,
        strictCheck: Bool = false, expandParams: String = ""
    ) throws {
        let strict = strictCheck ? "1" : "0"
        let version = Self.version
        let sign: String
        let algorithm: String
        switch signing {
        case .md5(let secret):
            let prefix = appId + version + msgid + systemtime + strict + token
            sign = Hex.uppercase(try Digest.md5(Array((prefix + secret).utf8)))
            algorithm = ""
            signedWithoutSecret = prefix
        case .rsa(let privateKey):
            let input = appId + token
            sign = Hex.uppercase(try privateKey.sign(Array(input.utf8), digest: .sha256))
            algorithm = "RSA"
            signedWithoutSecret = input
        }
        self.msgid = msgid
        self.signing = signing
        json = .object([
            ("version", .string(version)),
            ("msgid", .string(msgid)),
            ("systemtime", .string(systemtime)),
            ("strictcheck", .string(strict)),
            ("appid", .string(appId)),
            ("expandparams", .string(expandParams)),
            ("token", .string(token)),
            ("sign", .string(sign)),
            ("encryptionalgorithm", .string(algorithm)),
        ])
    }

    /// A placeholder that says how long the secret was and how it starts and ends, enough to
    /// spot an APPSecret/appKey mix-up or stray whitespace without revealing it.
    /// Counted in Unicode scalars, not Characters: secrets are ASCII, and grapheme breaking would
    /// run on every signed request.
    static func redacted(_ secret: String) -> String {
        let scalars = secret.unicodeScalars
        let count = scalars.count
        guard count >= 8 else { return "<secret: \(count) chars>" }
        return "<secret: \(count) chars, \(String(scalars.prefix(2)))…\(String(scalars.suffix(2)))>"
    }
}

extension CMCCLoginSigning {
    /// The mode only: the secret or the private key never prints.
    public var redactedFields: [(label: String, value: String)] {
        switch self {
        case .md5: [("mode", "md5")]
        case .rsa: [("mode", "rsa")]
        }
    }
}

extension CMCCLoginRequest {
    /// The body and the signing input hold the token: only the msgid prints.
    public var redactedFields: [(label: String, value: String)] { [("msgid", msgid), ("signing", signing.description)] }
}
