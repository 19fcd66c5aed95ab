import PassgateCore

/// What a Getui reply said.
public struct GetuiReply: Sendable, Equatable {
    /// `data.result` as digits; `errno` when the envelope failed without one.
    public let code: String
    /// `data.msg` (or `msg`), redacted (`Redaction`).
    public let message: String?
    /// `data.data.pn`: hex AES-128-CBC of the number. Never printed.
    public let pn: String?
    public let httpStatus: Int
}

/// Parses Getui replies: `{"errno": 0, "data": {"result": "20000", "msg": "…", "data": {"pn": "…"}}}`.
/// The body is read whatever the HTTP status when it is a protocol answer (it has an `errno`);
/// anything else is a `carrier_bad_response` described by its redacted shape.
public enum GetuiReplyParser {
    public static func parse(status: Int, contentType: String?, body: [UInt8]) throws(PassgateError) -> GetuiReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { $0["errno"] != nil }
        let errno = try ProviderReply.digitCode(object["errno"], field: "errno", provider: "Getui", usual: "0 when the call went through")
        let data: ParsedJSON? = switch object["data"] {
        case .object?: object["data"]
        default: nil
        }
        let code: String
        if let result = data?["result"], result != .null {
            code = try ProviderReply.digitCode(result, field: "data.result", provider: "Getui", usual: "5 digits")
        } else if errno != "0" {
            code = errno
        } else {
            throw ProviderReply.badReply(.missingField("data.result"))
        }
        let message = (ProviderReply.string(data?["msg"]) ?? ProviderReply.string(object["msg"])).map(Redaction.redact)
        let pn: String? = switch data?["data"] {
        case .object?: ProviderReply.string(data?["data"]?["pn"])
        default: nil
        }
        return GetuiReply(code: code, message: message, pn: pn, httpStatus: status)
    }
}
