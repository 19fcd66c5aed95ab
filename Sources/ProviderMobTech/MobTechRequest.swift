import OpenSSLCrypto
import PassgateCore

/// A signed MobTech SecVerify request: `POST /auth/auth/sdkClientFreeLogin`, a JSON body and the
/// `appkey` header. `sign = lowercase hex MD5("k1=v1&k2=v2…" over every other field sorted by
/// name, then the AppSecret appended directly, no `&`)`; `timestamp` in milliseconds, a JSON number.
public struct MobTechRequest: Sendable, RedactedDescription {
    public static let path = "/auth/auth/sdkClientFreeLogin"
    /// The operators MobTech names (`operator`), as its SDK returns them with the opToken.
    public static let operators = ["CMCC", "CUCC", "CTCC"]

    /// Every field but `sign`, sorted by name; the timestamp as its digits.
    public let fields: [(name: String, value: String)]
    /// What the sign covers, the AppSecret included: never printed (`passgate sign` replaces it).
    let signedString: String
    public let sign: String
    /// Our id for the call (MobTech takes none; its `seqid` comes back).
    public let msgid: String

    /// The request for Mob's `token` and the carrier's `opToken`, from the SDK; `md5` (the APK
    /// signature's MD5) only when the SDK gave one.
    public init(app: MobTechApp, token: String, opToken: String, operator carrier: String, md5: String?, timestamp: Int64, msgid: String) throws {
        var fields: [(name: String, value: String)] = [
            ("appkey", app.appId), ("opToken", opToken), ("operator", carrier), ("timestamp", String(timestamp)), ("token", token),
        ]
        if let md5 { fields.append(("md5", md5)) }
        self.fields = fields.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        signedString = Self.canonical(self.fields) + app.appSecret
        sign = Hex.lowercase(try Digest.md5(Array(signedString.utf8)))
        self.msgid = msgid
    }

    /// `k1=v1&k2=v2…` over `sorted`, as the sign covers it (before the AppSecret).
    public static func canonical(_ sorted: [(name: String, value: String)]) -> String {
        sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    /// The JSON body: the fields in sorted order, `timestamp` as a number, then `sign`.
    public var body: [UInt8] {
        var json = JSONObjectWriter()
        for (name, value) in fields {
            if name == "timestamp" { json.add(name, json: Array(value.utf8)) } else { json.add(name, value) }
        }
        json.add("sign", sign)
        return json.finish()
    }

    public var providerRequest: ProviderRequest {
        let appkey = fields.first { $0.name == "appkey" }?.value ?? ""
        return ProviderRequest(
            method: .post, path: Self.path,
            headers: [("Content-Type", "application/json; charset=utf-8"), ("Accept", "application/json"), ("appkey", appkey)],
            body: body, msgid: msgid)
    }
}

extension MobTechRequest {
    /// The fields hold both tokens, and the signed string the AppSecret: the names and msgid only.
    public var redactedFields: [(label: String, value: String)] {
        [("msgid", msgid), ("fields", fields.map(\.name).joined(separator: ","))]
    }
}
