import OpenSSLCrypto
import PassgateCore

/// A signed Tencent Cloud number-authentication request: `POST /v5/rapidauth/validate?sdkappid=…&random=…`
/// with a JSON body `{"sig", "time", "carrier"?, "token"}`, where
/// `sig = hex(SHA-256("appkey=" + appKey + "&random=" + random + "&time=" + time))`: a plain
/// digest with the key inside, not an HMAC.
public struct TencentRequest: Sendable, RedactedDescription {
    public static let path = "/v5/rapidauth/validate"
    /// The carriers the `carrier` field may name.
    public static let carriers = ["mobile", "unicom", "telecom"]

    /// The 10-digit `random`: fresh per call, our id for it (Tencent echoes nothing).
    public let random: String
    /// `time`, seconds since the epoch.
    public let time: String
    public let sig: String
    public let body: [UInt8]
    public let sdkAppId: String

    /// `random` is 10 digits, `time` seconds; `carrier` one of ``carriers`` or nil.
    public init(app: TencentApp, token: String, carrier: String?, random: String, time: String) throws {
        sig = try Self.sign(appKey: app.appKey, random: random, time: time)
        var json = JSONObjectWriter()
        json.add("sig", sig)
        json.add("time", time)
        if let carrier { json.add("carrier", carrier) }
        json.add("token", token)
        body = json.finish()
        self.random = random
        self.time = time
        sdkAppId = app.appId
    }

    /// The string the SHA-256 covers: it holds the AppKey, so it is never printed whole.
    public static func stringToSign(appKey: String, random: String, time: String) -> String {
        "appkey=\(appKey)&random=\(random)&time=\(time)"
    }

    public static func sign(appKey: String, random: String, time: String) throws -> String {
        Hex.lowercase(try Digest.sha256(Array(stringToSign(appKey: appKey, random: random, time: time).utf8)))
    }

    /// A fresh 10-digit number (1000000000-9999999999) from the secure random source.
    public static func makeRandom() throws -> String {
        let value = try SecureRandom.bytes(count: 8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return String(1_000_000_000 + value % 9_000_000_000)
    }

    public var providerRequest: ProviderRequest {
        ProviderRequest(
            method: .post, path: "\(Self.path)?sdkappid=\(PercentEncoding.encode(sdkAppId))&random=\(random)",
            headers: [("Content-Type", "application/json; charset=utf-8"), ("Accept", "application/json")], body: body, msgid: random)
    }
}

extension TencentRequest {
    /// The body holds the token and the sig is a digest of the AppKey: the random and time only.
    public var redactedFields: [(label: String, value: String)] { [("random", random), ("time", time)] }
}
