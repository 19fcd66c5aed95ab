import PassgateCore

/// What a Shanyan reply said.
public struct ShanyanReply: Sendable, Equatable {
    public let code: String
    /// `message`, redacted (`Redaction`).
    public let message: String?
    /// `chargeStatus == 1`: Shanyan bills the call.
    public let charged: Bool
    /// `data.tradeNo`, Shanyan's id of the call.
    public let tradeNo: String?
    /// `data.mobileName` (login): the encrypted number, hex (AES) or hex/base64 (RSA).
    public let mobileName: String?
    /// `data.isVerify` (verification): "1" or "0".
    public let isVerify: String?
    public let httpStatus: Int
}

/// Parses Shanyan replies: JSON, `code` a string (or a number written as one), `data` an object.
public enum ShanyanReplyParser {
    public static func parse(status: Int, contentType: String?, body: [UInt8]) throws(PassgateError) -> ShanyanReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { $0["code"] != nil }
        let code = try ProviderReply.digitCode(object["code"], field: "code", provider: "Shanyan", usual: "6 digits")
        let data: ParsedJSON? = switch object["data"] {
        case .object?: object["data"]
        case nil, .null?: nil
        default: throw ProviderReply.badReply(.malformedField("data", detail: "is not an object"))
        }
        let charge = ProviderReply.string(object["chargeStatus"])
        return ShanyanReply(
            code: code, message: ProviderReply.string(object["message"]).map(Redaction.redact), charged: charge == "1",
            tradeNo: ProviderReply.string(data?["tradeNo"]).flatMap(tradeNo),
            mobileName: ProviderReply.string(data?["mobileName"]) ?? ProviderReply.string(data?["mobile"]),
            isVerify: ProviderReply.string(data?["isVerify"]), httpStatus: status)
    }

    /// Shanyan's id of the call, kept when it looks like one (1-64 letters, digits, `-`, `_`).
    private static func tradeNo(_ text: String) -> String? {
        guard (1...64).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 0x2D || $0 == 0x5F })
        else { return nil }
        return text
    }
}
