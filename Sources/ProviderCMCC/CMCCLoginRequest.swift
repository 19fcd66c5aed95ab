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
    public var msgid: String { signed.msgid }
    /// The exact string that was signed, with any secret replaced by a placeholder: what an
    /// integrator compares against the carrier's expectations after a 103101. Made when asked
    /// (`passgate sign-login-token` asks; a served request never does).
    public var redactedSigningInput: String {
        switch signing {
        case .md5(let secret): String(decoding: Self.md5Input(signed), as: UTF8.self) + Self.redacted(secret)
        case .rsa: signed.appId + signed.token
        }
    }

    private let signing: CMCCLoginSigning
    /// The fields the signature covers, kept to rebuild the signing input when asked.
    private let signed: SignedFields

    /// What `sign` covers, in the order the MD5 form concatenates them.
    private struct SignedFields {
        let appId: String
        let msgid: String
        let systemtime: String
        let strict: String
        let token: String
    }

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
        let signed = SignedFields(appId: appId, msgid: msgid, systemtime: systemtime, strict: strict, token: token)
        let sign: String
        let algorithm: String
        switch signing {
        case .md5(let secret):
            // Bytes appended to one buffer: six `String` concatenations cost ten times as much.
            var input = Self.md5Input(signed, reserving: secret.utf8.count)
            input.append(contentsOf: secret.utf8)
            sign = Hex.uppercase(try Digest.md5(input))
            algorithm = ""
        case .rsa(let privateKey):
            var input = Array(appId.utf8)
            input.append(contentsOf: token.utf8)
            sign = Hex.uppercase(try privateKey.sign(input, digest: .sha256))
            algorithm = "RSA"
        }
        self.signed = signed
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

    /// `appid + version + msgid + systemtime + strictcheck + token`: the MD5 form's input up to
    /// the secret, with room for `reserving` more bytes.
    private static func md5Input(_ fields: SignedFields, reserving extra: Int = 0) -> [UInt8] {
        var input: [UInt8] = []
        input.reserveCapacity(
            fields.appId.utf8.count + version.utf8.count + fields.msgid.utf8.count + fields.systemtime.utf8.count
                + fields.strict.utf8.count + fields.token.utf8.count + extra)
        input.append(contentsOf: fields.appId.utf8)
        input.append(contentsOf: version.utf8)
        input.append(contentsOf: fields.msgid.utf8)
        input.append(contentsOf: fields.systemtime.utf8)
        input.append(contentsOf: fields.strict.utf8)
        input.append(contentsOf: fields.token.utf8)
        return input
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
