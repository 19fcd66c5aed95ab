import PassgateCore

/// What a Umeng reply said: Umeng's answer, or the API gateway's refusal.
public struct UmengReply: Sendable, Equatable {
    /// Umeng's `code` as digits, or the gateway's refusal (its `X-Ca-Error-Message` up to the first comma).
    public let code: String
    /// Whether the code is the gateway's.
    public let fromGateway: Bool
    /// `success`: true only for an answer.
    public let success: Bool
    /// `message`, redacted (`Redaction`).
    public let message: String?
    /// `data.mobile`: the number in clear.
    public let mobile: String?
    /// The verification's answer (`data.verifyResult`), upper-cased.
    public let verifyResult: String?
    /// The gateway's `X-Ca-Request-Id` (a UUID), its id of the call, when it looks like one.
    public let requestId: String?
}

/// Parses Umeng replies. Its business answers are JSON (`success`, `code`, `message`, `data`);
/// the Alibaba Cloud API gateway refuses with an HTTP 4xx, an empty body and the reason in the
/// `X-Ca-Error-Message` header, which only the headers carry.
public enum UmengReplyParser {
    public static func parse(_ reply: CarrierHTTPReply) throws(PassgateError) -> UmengReply {
        if !(200..<300).contains(reply.status), let refusal = reply.header("X-Ca-Error-Message"), let code = gatewayCode(refusal),
            reply.body.allSatisfy({ $0 == 0x20 || (0x09...0x0D).contains($0) })
        {
            return UmengReply(code: code, fromGateway: true, success: false, message: code, mobile: nil, verifyResult: nil, requestId: requestId(reply))
        }
        let object = try ProviderReply.jsonObject(status: reply.status, contentType: reply.contentType, body: reply.body) { $0["code"] != nil && $0["success"] != nil }
        let code = try ProviderReply.digitCode(object["code"], field: "code", provider: "Umeng", usual: "3 digits, 200 for success")
        let success = object["success"] == .bool(true) || ProviderReply.string(object["success"]) == "true"
        let data: ParsedJSON? = switch object["data"] {
        case .object?: object["data"]
        default: nil
        }
        // Tolerant: the verify answer is not in the public material (docs/umeng.md).
        let verify = (ProviderReply.string(data?["verifyResult"]) ?? ProviderReply.string(data?["result"])).map { $0.trimmingASCIISpaces.uppercased() }
        return UmengReply(
            code: code, fromGateway: false, success: success, message: ProviderReply.string(object["message"]).map(Redaction.redact),
            mobile: ProviderReply.string(data?["mobile"]), verifyResult: verify ?? (data?["verifyResult"]).flatMap(boolean), requestId: requestId(reply))
    }

    /// `X-Ca-Request-Id` when it looks like the gateway's UUIDs: 1-64 hex digits and `-`.
    private static func requestId(_ reply: CarrierHTTPReply) -> String? {
        guard let text = reply.header("X-Ca-Request-Id"), (1...64).contains(text.utf8.count),
            text.utf8.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) || $0 == 0x2D })
        else { return nil }
        return text
    }

    /// `true`/`false` as PASS/REJECT, for a verify answer given as a boolean.
    private static func boolean(_ value: ParsedJSON) -> String? {
        switch value {
        case .bool(true): "PASS"
        case .bool(false): "REJECT"
        default: nil
        }
    }

    /// The refusal's reason up to its first comma (`Invalid Signature, Server StringToSign:…` is
    /// `Invalid Signature`: the rest quotes the request), when it is 1-64 letters, digits, spaces,
    /// `.`, `-`, `_` with no run of 5+ digits; nil otherwise (then the reply is no protocol answer).
    static func gatewayCode(_ message: String) -> String? {
        let reason = String(message.prefix { $0 != "," }).trimmingASCIISpaces
        var run = 0
        for byte in reason.utf8 {
            run = (48...57).contains(byte) ? run + 1 : 0
            guard run < 5, (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || [0x20, 0x2D, 0x2E, 0x5F].contains(byte) else { return nil }
        }
        return (1...64).contains(reason.utf8.count) ? reason : nil
    }
}
