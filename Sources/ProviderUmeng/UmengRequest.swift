import Foundation
import OpenSSLCrypto
import PassgateCore

/// A Umeng U-Verify request through the Alibaba Cloud API gateway, signed with its digest
/// signature: `X-Ca-Signature = base64(HMAC-SHA256(gatewayAppSecret, StringToSign))`, where
/// StringToSign is `METHOD\nAccept\nContent-MD5\nContent-Type\nDate\n`, one `name:value\n` per
/// signed header (sorted, names in lower case) and `path?query` (query sorted).
public struct UmengRequest: Sendable, RedactedDescription {
    public static let loginPath = "/api/v1/mobile/info"
    public static let verifyPath = "/api/v1/mobile/verify"
    /// Sent explicitly and signed as sent: a client's default `*/*` signed differently is the classic failure.
    public static let accept = "application/json"
    public static let contentType = "application/json; charset=UTF-8"

    /// The path with its query (`?appkey=…`), as sent and signed.
    public let pathAndQuery: String
    public let body: [UInt8]
    /// The signed `x-ca-*` headers, sorted by name.
    public let signedHeaders: [(name: String, value: String)]
    public let stringToSign: String
    public let signature: String
    /// `X-Ca-Nonce`: unique per call, our id for it.
    public let nonce: String

    /// The number for `token` (`/info`), or its verification against `phoneNumber` (`/verify`).
    public init(app: UmengApp, token: String, phoneNumber: String? = nil, nonce: String, timestamp: Int64) throws {
        var json = JSONObjectWriter()
        json.add("token", token)
        if let phoneNumber { json.add("phoneNumber", phoneNumber) }
        body = json.finish()
        pathAndQuery = (phoneNumber == nil ? Self.loginPath : Self.verifyPath) + "?appkey=" + PercentEncoding.encode(app.appId)
        signedHeaders = [
            ("x-ca-key", app.gatewayAppKey), ("x-ca-nonce", nonce), ("x-ca-stage", "RELEASE"), ("x-ca-timestamp", String(timestamp)), ("x-ca-version", "1"),
        ]
        stringToSign = Self.stringToSign(
            method: "POST", accept: Self.accept, contentMD5: "", contentType: Self.contentType, date: "", headers: signedHeaders, pathAndQuery: pathAndQuery)
        signature = Data(try Digest.hmacSHA256(key: Array(app.gatewayAppSecret.utf8), data: Array(stringToSign.utf8))).base64EncodedString()
        self.nonce = nonce
    }

    /// The gateway's StringToSign; `headers` are sorted here, `pathAndQuery`'s query must be sorted already.
    public static func stringToSign(
        method: String, accept: String, contentMD5: String, contentType: String, date: String, headers: [(name: String, value: String)], pathAndQuery: String
    ) -> String {
        let sorted = headers.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        return [method, accept, contentMD5, contentType, date].joined(separator: "\n") + "\n"
            + sorted.map { "\($0.name):\($0.value)\n" }.joined() + pathAndQuery
    }

    public var providerRequest: ProviderRequest {
        var headers: [(name: String, value: String)] = [("Accept", Self.accept), ("Content-Type", Self.contentType)]
        headers += signedHeaders
        headers += [("x-ca-signature-headers", signedHeaders.map(\.name).joined(separator: ",")), ("x-ca-signature", signature)]
        return ProviderRequest(method: .post, path: pathAndQuery, headers: headers, body: body, msgid: nonce)
    }
}

extension UmengRequest {
    /// The body holds the token (and the number): the path without its query, the nonce and the signed header names.
    public var redactedFields: [(label: String, value: String)] {
        [("path", String(pathAndQuery.prefix { $0 != "?" })), ("nonce", nonce), ("signed", signedHeaders.map(\.name).joined(separator: ","))]
    }
}
