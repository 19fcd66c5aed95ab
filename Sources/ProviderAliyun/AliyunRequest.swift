import Foundation
import OpenSSLCrypto
import PassgateCore

/// A signed Alibaba Cloud RPC request (`SignatureVersion 1.0`), parameters in a form body:
/// `Signature = base64(HMAC-SHA1(AccessKeySecret + "&", "POST&%2F&" + pe(sorted k=v joined by &)))`,
/// `pe` the RFC 3986 percent-encoding (only `A-Z a-z 0-9 - _ . ~` kept).
public struct AliyunRequest: Sendable, RedactedDescription {
    public static let path = "/"
    public static let version = "2017-05-25"

    /// Every parameter but `Signature`, sorted by name.
    public let parameters: [(name: String, value: String)]
    public let stringToSign: String
    public let signature: String
    /// `SignatureNonce`: unique per call (a reused one is refused), our id for the call.
    public let nonce: String

    /// `GetMobile` for `token`, or `VerifyMobile` when `phoneNumber` is given.
    public init(app: AliyunApp, token: String, phoneNumber: String? = nil, outId: String?, nonce: String, timestamp: String) throws {
        var parameters: [(name: String, value: String)] = [
            ("AccessKeyId", app.accessKeyId), ("Action", phoneNumber == nil ? "GetMobile" : "VerifyMobile"), ("Format", "JSON"),
            ("RegionId", app.regionId), ("SignatureMethod", "HMAC-SHA1"), ("SignatureNonce", nonce), ("SignatureVersion", "1.0"),
            ("Timestamp", timestamp), ("Version", Self.version),
        ]
        if let phoneNumber {
            parameters += [("AccessCode", token), ("PhoneNumber", phoneNumber)]
        } else {
            parameters.append(("AccessToken", token))
        }
        if let outId { parameters.append(("OutId", outId)) }
        self.parameters = parameters.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        stringToSign = Self.stringToSign(method: "POST", self.parameters)
        signature = Data(try Digest.hmacSHA1(key: Array((app.accessKeySecret + "&").utf8), data: Array(stringToSign.utf8))).base64EncodedString()
        self.nonce = nonce
    }

    /// `METHOD&%2F&pe(canonical query)`.
    public static func stringToSign(method: String, _ sorted: [(name: String, value: String)]) -> String {
        let canonical = sorted.map { "\(percentEncoded($0.name))=\(percentEncoded($0.value))" }.joined(separator: "&")
        return "\(method)&\(percentEncoded("/"))&\(percentEncoded(canonical))"
    }

    /// RFC 3986: unreserved characters kept, every other byte `%XX` (so a space is `%20`, `*` is `%2A`).
    public static func percentEncoded(_ text: String) -> String {
        PercentEncoding.encode(text)
    }

    /// The form body: every parameter and `Signature`, percent-encoded.
    public var body: [UInt8] {
        Array((parameters + [("Signature", signature)]).map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }
            .joined(separator: "&").utf8)
    }

    public var providerRequest: ProviderRequest {
        ProviderRequest(
            method: .post, path: Self.path,
            headers: [("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8"), ("Accept", "application/json")],
            body: body, msgid: nonce)
    }
}

extension AliyunRequest {
    /// The parameters hold the token (and the number when verifying), the string to sign the
    /// same, and the signature is keyed by the AccessKey secret: the nonce and the names only.
    public var redactedFields: [(label: String, value: String)] {
        [("nonce", nonce), ("parameters", parameters.map(\.name).joined(separator: ","))]
    }
}
