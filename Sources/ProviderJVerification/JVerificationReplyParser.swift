import PassgateCore

/// What a JVerification reply said.
public struct JVerificationReply: Sendable, Equatable {
    /// `code`, as digits.
    public let code: String
    /// `id`, the call's 64-bit id, exactly as sent (never through a floating-point number).
    public let id: String?
    /// `content`, redacted (`Redaction`).
    public let content: String?
    /// `phone`: the base64 RSA ciphertext of the number.
    public let phone: String?
    /// `score` (v2 login only): 0-900, higher is riskier.
    public let score: Int?
    public let httpStatus: Int
}

/// Parses JVerification replies. Which HTTP status its error answers carry is not documented, so
/// the body is read whatever the status when it is a protocol answer (it has a `code`). Anything
/// else is a `carrier_bad_response` described by its redacted shape.
public enum JVerificationReplyParser {
    public static func parse(status: Int, contentType: String?, body: [UInt8], expectedExID: String) throws(PassgateError) -> JVerificationReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { $0["code"] != nil }
        let code = try ProviderReply.digitCode(object["code"], field: "code", provider: "JVerification", usual: "4 digits")
        if let echoed = ProviderReply.string(object["exID"]), !echoed.isEmpty, echoed != expectedExID {
            throw ProviderReply.badReply(.msgidMismatch(expected: expectedExID, received: String(Redaction.redact(String(echoed.prefix(64))))))
        }
        return JVerificationReply(
            code: code, id: id(object["id"]), content: ProviderReply.string(object["content"]).map(Redaction.redact),
            phone: ProviderReply.string(object["phone"]), score: try score(object["score"]), httpStatus: status)
    }

    /// The id as its digits: a JSON number (its text, so no digit is lost) or a string of digits.
    private static func id(_ value: ParsedJSON?) -> String? {
        let text: String? = switch value {
        case .number(let digits)?: digits
        case .string(let digits)?: digits
        default: nil
        }
        guard let text, (1...20).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return text
    }

    private static func score(_ value: ParsedJSON?) throws(PassgateError) -> Int? {
        guard let value, value != .null else { return nil }
        guard let text = ProviderReply.string(value), let score = Int(text), (0...1000).contains(score) else {
            throw ProviderReply.badReply(.malformedField("score", detail: "is not a risk score (0-900)"))
        }
        return score
    }
}
