import OpenSSLCrypto
import PassgateCore

/// A signed Shanyan request: a form body whose `sign` is
/// `hex(HMAC-SHA256(appKey, name + value of every other field sent, sorted by name))`.
public struct ShanyanRequest: Sendable, RedactedDescription {
    public static let loginPath = "/open/flashsdk/mobile-query"
    public static let verifyPath = "/open/flashsdk/mobile-validate"

    public let path: String
    /// The fields as sent, `sign` last.
    public let fields: [(name: String, value: String)]
    /// What was signed (no secret in it: the appKey is the HMAC key).
    public let signingInput: String
    /// `outId`: Passgate's request id (nil: not sent).
    public let outId: String?

    /// `mobile-query` (login) or, with `phoneNumber`, `mobile-validate`, for `app`.
    public init(app: ShanyanApp, token: String, phoneNumber: String? = nil, outId: String?) throws {
        try self.init(
            appId: app.appId, appKey: app.appKey, signCase: app.signCase, rsaNumber: app.privateKey != nil, token: token,
            phoneNumber: phoneNumber, outId: outId)
    }

    /// The same from the bare settings (the sandbox and tests); `rsaNumber` asks for the
    /// number RSA-encrypted (`encryptType=1`).
    public init(
        appId: String, appKey: String, signCase: ShanyanApp.SignCase, rsaNumber: Bool, token: String, phoneNumber: String?, outId: String?
    ) throws {
        var unsigned: [(name: String, value: String)] = [("appId", appId), ("token", token)]
        if let outId { unsigned.append(("outId", outId)) }
        if let phoneNumber { unsigned.append(("mobile", phoneNumber)) }
        // Optional fields are sent only when set: the signature covers exactly what is sent.
        if rsaNumber, phoneNumber == nil { unsigned.append(("encryptType", "1")) }
        let sorted = unsigned.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        signingInput = sorted.map { $0.name + $0.value }.joined()
        let mac = try Digest.hmacSHA256(key: Array(appKey.utf8), data: Array(signingInput.utf8))
        let sign = signCase == .upper ? Hex.uppercase(mac) : Hex.lowercase(mac)
        fields = sorted + [("sign", sign)]
        path = phoneNumber == nil ? Self.loginPath : Self.verifyPath
        self.outId = outId
    }

    /// `application/x-www-form-urlencoded`, UTF-8.
    public var body: [UInt8] {
        Array(fields.map { "\(Self.formEncoded($0.name))=\(Self.formEncoded($0.value))" }.joined(separator: "&").utf8)
    }

    public var providerRequest: ProviderRequest {
        ProviderRequest(
            method: .post, path: path,
            headers: [("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8"), ("Accept", "application/json")],
            body: body, msgid: outId ?? "")
    }

    /// Form encoding: letters, digits and `-._~` as they are, a space as `+`, every other byte `%XX`.
    public static func formEncoded(_ text: String) -> String {
        PercentEncoding.encode(text, spaceAsPlus: true)
    }
}

extension ShanyanRequest {
    /// The fields hold the token (and the number when verifying) and the signature: their names only.
    public var redactedFields: [(label: String, value: String)] {
        [("path", path), ("outId", outId ?? "none"), ("fields", fields.map(\.name).joined(separator: ","))]
    }
}
