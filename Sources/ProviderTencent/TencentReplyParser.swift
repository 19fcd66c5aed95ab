import PassgateCore

/// What a Tencent Cloud number-authentication reply said.
public struct TencentReply: Sendable, Equatable {
    /// `result`, as digits (a leading `-` kept).
    public let code: String
    /// `errmsg`, redacted (`Redaction`).
    public let message: String?
    /// `mobile`: the number in clear.
    public let mobile: String?
    public let httpStatus: Int
}

/// Parses Tencent Cloud replies: a JSON object with a numeric `result`, whatever the status;
/// anything else is a `carrier_bad_response` described by its redacted shape.
public enum TencentReplyParser {
    public static func parse(status: Int, contentType: String?, body: [UInt8]) throws(PassgateError) -> TencentReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { $0["result"] != nil }
        guard let raw = ProviderReply.string(object["result"])?.trimmingASCIISpaces else { throw ProviderReply.badReply(.missingField("result")) }
        // Codes are not published: a number of up to 6 digits, negative or not (a longer run could be a phone number).
        let digits = raw.hasPrefix("-") ? String(raw.dropFirst()) : raw
        guard (1...6).contains(digits.utf8.count), digits.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw ProviderReply.badReply(.malformedField("result", detail: "is not a Tencent Cloud code (\(raw.utf8.count) characters; codes are numbers)"))
        }
        return TencentReply(
            code: raw, message: ProviderReply.string(object["errmsg"]).map(Redaction.redact),
            mobile: ProviderReply.string(object["mobile"])?.trimmingASCIISpaces, httpStatus: status)
    }
}
