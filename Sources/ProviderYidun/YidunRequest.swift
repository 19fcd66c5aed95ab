import OpenSSLCrypto
import PassgateCore

/// A signed NetEase Yidun request, fields in a form body:
/// `signature = hex(MD5(name1 + value1 + name2 + value2 … (sorted by name) + secretKey))`, over
/// every field but `signature`, with no separators.
public struct YidunRequest: Sendable, RedactedDescription {
    public static let loginPath = "/v1/oneclick/check"
    public static let verifyPath = "/v1/check"
    public static let version = "v1"

    public let path: String
    /// Every field but `signature`, sorted by name.
    public let fields: [(name: String, value: String)]
    public let signature: String
    /// The 32-character `nonce`: unique per call, our id for it.
    public let nonce: String

    /// The phone-number request, or the verification when `phoneNumber` is given. `token` is
    /// Yidun's own token, `accessToken` the carrier's; `timestamp` in milliseconds.
    public init(app: YidunApp, token: String, accessToken: String, phoneNumber: String? = nil, nonce: String, timestamp: String) throws {
        var fields: [(name: String, value: String)] = [
            ("accessToken", accessToken), ("businessId", app.businessId), ("nonce", nonce), ("secretId", app.secretId),
            ("timestamp", timestamp), ("token", token), ("version", Self.version),
        ]
        if let phoneNumber { fields.append(("phone", phoneNumber)) }
        self.fields = Self.sorted(fields)
        path = phoneNumber == nil ? Self.loginPath : Self.verifyPath
        signature = try Self.sign(self.fields, secretKey: app.secretKey)
        self.nonce = nonce
    }

    /// The string the MD5 covers, without the secret key at its end.
    public static func stringToSign(_ sorted: [(name: String, value: String)]) -> String {
        sorted.map { $0.name + $0.value }.joined()
    }

    /// The lowercase hex MD5 of the sorted fields then `secretKey`.
    public static func sign(_ sorted: [(name: String, value: String)], secretKey: String) throws -> String {
        Hex.lowercase(try Digest.md5(Array((stringToSign(sorted) + secretKey).utf8)))
    }

    /// Sorted by name, byte-wise (as Java's `TreeMap` of ASCII names sorts).
    public static func sorted(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        fields.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    /// The form body: every field and `signature`, percent-encoded.
    public var body: [UInt8] {
        Array((fields + [("signature", signature)]).map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
            .joined(separator: "&").utf8)
    }

    public var providerRequest: ProviderRequest {
        ProviderRequest(
            method: .post, path: path,
            headers: [("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8"), ("Accept", "application/json")],
            body: body, msgid: nonce)
    }
}

extension YidunRequest {
    /// The fields hold both tokens (and the number when verifying), and the signature is keyed
    /// by the secret key: the path, the nonce and the names only.
    public var redactedFields: [(label: String, value: String)] {
        [("path", path), ("nonce", nonce), ("fields", fields.map(\.name).joined(separator: ","))]
    }
}
