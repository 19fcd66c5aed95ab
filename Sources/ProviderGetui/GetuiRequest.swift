import OpenSSLCrypto
import PassgateCore

/// A signed Getui `gy_get_pn` (v2) request, a JSON body:
/// `sign = lowercase hex SHA-256(appSecret + timestamp + masterSecret)`, `timestamp` in milliseconds.
public struct GetuiRequest: Sendable, RedactedDescription {
    public static let path = "/v2/gy/ct_login/gy_get_pn"

    public let timestamp: Int64
    public let sign: String
    /// The JSON body, sign included.
    public let body: [UInt8]

    /// The number behind `token`, from the device `gyuid`.
    public init(app: GetuiApp, token: String, gyuid: String, timestamp: Int64) throws {
        self.timestamp = timestamp
        sign = try Self.sign(app: app, timestamp: timestamp)
        var object = JSONObjectWriter()
        object.add("appId", app.appId)
        object.add("gyuid", gyuid)
        object.add("token", token)
        // A JSON number, as Getui's Java demo sends a long (UNCERTAIN: docs/getui.md).
        object.add("timestamp", json: Array(String(timestamp).utf8))
        object.add("sign", sign)
        body = object.finish()
    }

    /// `appSecret + timestamp + masterSecret`: the string the sign hashes (it holds both secrets).
    public static func stringToSign(app: GetuiApp, timestamp: Int64) -> String { "\(app.appSecret)\(timestamp)\(app.masterSecret)" }

    public static func sign(app: GetuiApp, timestamp: Int64) throws -> String {
        Hex.lowercase(try Digest.sha256(Array(stringToSign(app: app, timestamp: timestamp).utf8)))
    }

    public var providerRequest: ProviderRequest {
        ProviderRequest(
            method: .post, path: Self.path, headers: [("Content-Type", "application/json;charset=UTF-8"), ("Accept", "application/json")], body: body,
            msgid: String(timestamp))
    }

    /// The body holds the token and the device id: the timestamp only.
    public var redactedFields: [(label: String, value: String)] { [("timestamp", String(timestamp))] }
}
