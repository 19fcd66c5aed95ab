import PassgateCore

/// What an Alibaba Cloud reply said.
public struct AliyunReply: Sendable, Equatable {
    public let code: String
    /// `Message`, redacted (`Redaction`).
    public let message: String?
    /// `RequestId`, Alibaba Cloud's id of the call.
    public let requestId: String?
    /// `GetMobileResultDTO.Mobile`: the number in clear.
    public let mobile: String?
    /// `GateVerifyResultDTO.VerifyResult`: PASS, REJECT or UNKNOWN.
    public let verifyResult: String?
    public let httpStatus: Int
}

/// Parses Alibaba Cloud replies: business answers (HTTP 200) and the RPC gateway's error answers
/// (HTTP 4xx JSON with `Code`), which are protocol answers too, not bad responses.
public enum AliyunReplyParser {
    public static func parse(status: Int, contentType: String?, body: [UInt8]) throws(PassgateError) -> AliyunReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { $0["Code"] != nil }
        guard let raw = ProviderReply.string(object["Code"]) else { throw ProviderReply.badReply(.missingField("Code")) }
        let code = raw.trimmingASCIISpaces
        guard isCode(code) else {
            throw ProviderReply.badReply(.malformedField("Code", detail: "is not an Alibaba Cloud code (\(code.utf8.count) characters)"))
        }
        let mobile: String? = switch object["GetMobileResultDTO"] {
        case .object?: ProviderReply.string(object["GetMobileResultDTO"]?["Mobile"])
        default: nil
        }
        let verify: String? = switch object["GateVerifyResultDTO"] {
        case .object?: ProviderReply.string(object["GateVerifyResultDTO"]?["VerifyResult"])
        default: nil
        }
        return AliyunReply(
            code: code, message: ProviderReply.string(object["Message"]).map(Redaction.redact),
            requestId: ProviderReply.string(object["RequestId"]).flatMap(requestId), mobile: mobile, verifyResult: verify, httpStatus: status)
    }

    /// 1-64 letters, digits, `.`, `_`, `-`, with no run of more than 6 digits: anything else is
    /// not a code, and is not echoed (a phone number must never pass for one).
    static func isCode(_ code: String) -> Bool {
        var run = 0, longest = 0
        for byte in code.utf8 {
            run = (48...57).contains(byte) ? run + 1 : 0
            longest = max(longest, run)
        }
        return (1...64).contains(code.utf8.count) && longest <= 6 && code.utf8.allSatisfy {
            (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D
        }
    }

    /// Alibaba Cloud's request id (a UUID), kept when it looks like one.
    private static func requestId(_ text: String) -> String? {
        guard (1...64).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 0x2D })
        else { return nil }
        return text
    }
}
