import OpenSSLCrypto
import PassgateCore

/// A signed Geetest request, a JSON body: OneLogin's `check_phone` for the number, OnePass's
/// `check_gateway` to verify one. Both sign the same string:
/// `sign = lowercase hex(HMAC-SHA256(app_key, app_id + "&&" + timestamp))`, `timestamp` in
/// milliseconds, as a string.
public struct GeetestRequest: Sendable, RedactedDescription {
    public static let phoneNumberPath = "/check_phone"
    public static let verifyPath = "/v2.0/check_gateway"

    public let path: String
    public let timestamp: String
    public let stringToSign: String
    public let sign: String
    /// The JSON body, sign included.
    public let body: [UInt8]
    /// Our id for the call: Geetest echoes none, so the flow's timestamp stands in.
    public var msgid: String { timestamp }

    /// `check_phone` for `token` in the flow `processId`; `authcode` is China Telecom's second value.
    public static func phoneNumber(app: GeetestApp, token: String, processId: String, authcode: String?, timestamp: String) throws -> GeetestRequest {
        let sign = try Self.sign(app: app, timestamp: timestamp)
        var object = JSONObjectWriter()
        object.add("process_id", processId)
        object.add("token", token)
        object.add("timestamp", timestamp)
        object.add("sign", sign)
        object.add("authcode", authcode)
        if app.encryptNumber { object.add("is_phone_encode", true) }
        return GeetestRequest(path: phoneNumberPath, timestamp: timestamp, stringToSign: stringToSign(app: app, timestamp: timestamp), sign: sign, body: object.finish())
    }

    /// `check_gateway`: whether `phoneNumber` is the one behind `token` (OnePass's `accesscode`).
    public static func verify(app: GeetestApp, token: String, processId: String, phoneNumber: String, timestamp: String) throws -> GeetestRequest {
        let sign = try Self.sign(app: app, timestamp: timestamp)
        var object = JSONObjectWriter()
        object.add("process_id", processId)
        object.add("accesscode", token)
        object.add("phone", phoneNumber)
        object.add("timestamp", timestamp)
        object.add("sign", sign)
        return GeetestRequest(path: verifyPath, timestamp: timestamp, stringToSign: stringToSign(app: app, timestamp: timestamp), sign: sign, body: object.finish())
    }

    /// `app_id&&timestamp`.
    public static func stringToSign(app: GeetestApp, timestamp: String) -> String { "\(app.appId)&&\(timestamp)" }

    /// The lowercase hex HMAC-SHA256 of ``stringToSign(app:timestamp:)`` under the app_key.
    public static func sign(app: GeetestApp, timestamp: String) throws -> String {
        Hex.lowercase(try Digest.hmacSHA256(key: Array(app.appKey.utf8), data: Array(stringToSign(app: app, timestamp: timestamp).utf8)))
    }

    public var providerRequest: ProviderRequest {
        ProviderRequest(method: .post, path: path, headers: [("Content-Type", "application/json;charset=UTF-8"), ("Accept", "application/json")], body: body, msgid: msgid)
    }

    /// The body holds the token, the flow id and the number: the path and timestamp only.
    public var redactedFields: [(label: String, value: String)] { [("path", path), ("timestamp", timestamp)] }
}
