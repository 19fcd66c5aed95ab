import PassgateCore

/// What a NetEase Yidun reply said.
public struct YidunReply: Sendable, Equatable {
    /// `code`, as digits.
    public let code: String
    /// `msg`, redacted (`Redaction`).
    public let message: String?
    /// `data.phone`: the number in clear, or empty when the carrier refused.
    public let phone: String?
    /// `data.resultCode`: the carrier's own code when there is no number, when it looks like one.
    public let resultCode: String?
    /// `data.result` of a verification: 1 pass, 2 fail, 3 unknown.
    public let verifyResult: String?
    public let httpStatus: Int
}

/// Parses NetEase Yidun replies. Which HTTP status an error answer carries is not documented, so
/// a body with a `code` is read whatever the status; anything else is a `carrier_bad_response`.
public enum YidunReplyParser {
    public static func parse(status: Int, contentType: String?, body: [UInt8]) throws(PassgateError) -> YidunReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { $0["code"] != nil }
        let code = try ProviderReply.digitCode(object["code"], field: "code", provider: "NetEase Yidun", usual: "3 digits")
        var phone: String?, resultCode: String?, verifyResult: String?
        if case .object? = object["data"], let data = object["data"] {
            phone = ProviderReply.string(data["phone"])?.trimmingASCIISpaces
            resultCode = ProviderReply.string(data["resultCode"]).flatMap(carrierCode)
            verifyResult = ProviderReply.string(data["result"])?.trimmingASCIISpaces
        }
        return YidunReply(
            code: code, message: ProviderReply.string(object["msg"]).map(Redaction.redact), phone: phone, resultCode: resultCode,
            verifyResult: verifyResult, httpStatus: status)
    }

    /// The carrier's code as it is echoed in the error's message: 1-16 letters, digits, `-` or
    /// `_` with no run of more than 6 digits (a longer one could be a phone number); nil otherwise.
    static func carrierCode(_ text: String) -> String? {
        var run = 0
        for byte in text.utf8 {
            run = (48...57).contains(byte) ? run + 1 : 0
            let allowed = (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x2D || byte == 0x5F
            guard allowed, run <= 6 else { return nil }
        }
        return (1...16).contains(text.utf8.count) ? text : nil
    }
}
