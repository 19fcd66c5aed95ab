import PassgateCore

/// What a Geetest reply said.
public struct GeetestReply: Sendable, Equatable {
    /// `status`, as digits: 200, or the failure's code.
    public let status: String
    /// `error_msg`, redacted (`Redaction`); nil when absent or empty.
    public let errorMessage: String?
    /// `result`: the number (hex AES-256-CBC when asked encrypted) from `check_phone`, `"0"`
    /// (match) or `"1"` (mismatch) from `check_gateway`. Never printed.
    public let result: String?
    /// `charge`: whether Geetest bills the call; nil when the reply does not say.
    public let charge: Bool?
    public let httpStatus: Int
}

/// Parses Geetest replies. Geetest answers its failures with HTTP 200 and a `status`; the body
/// is read whatever the HTTP status when it is a protocol answer (it has a `status`), and
/// anything else is a `carrier_bad_response` described by its redacted shape. Risk-control
/// fields (`riskflag`, `risk_code`, `risk_level`) may come along and are not read.
public enum GeetestReplyParser {
    public static func parse(status: Int, contentType: String?, body: [UInt8]) throws(PassgateError) -> GeetestReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { $0["status"] != nil }
        let code = try ProviderReply.digitCode(object["status"], field: "status", provider: "Geetest", usual: "200, or 3-5 digits")
        let message = ProviderReply.string(object["error_msg"]).map { $0.trimmingASCIISpaces }.flatMap { $0.isEmpty ? nil : Redaction.redact($0) }
        let charge: Bool? = switch object["charge"] {
        case .bool(let value)?: value
        case .string("true")?, .number("1")?: true
        case .string("false")?, .number("0")?: false
        default: nil
        }
        return GeetestReply(status: code, errorMessage: message, result: ProviderReply.string(object["result"]), charge: charge, httpStatus: status)
    }
}
