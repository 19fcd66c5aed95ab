import PassgateCore
/// What a `loginTokenValidate` reply said.
public struct CMCCLoginReply: Sendable, Equatable {
    public let resultCode: String
    public let msisdn: String?
    public let taskId: String?
    /// The carrier's description, redacted (`Redaction`).
    public let desc: String?
    /// The HTTP status it came with: CMCC answers 200, but a gateway in front of it may send its
    /// JSON answer with an error status.
    public let httpStatus: Int
}

/// What a `tokenValidate` reply said.
public struct CMCCVerifyReply: Sendable, Equatable {
    public let resultCode: String
    public let taskId: String?
    /// The carrier's description, redacted (`Redaction`).
    public let resultDesc: String?
    public let httpStatus: Int
}

/// Parses CMCC replies as real carriers send them: `resultCode` or `resultcode`, `header`/`body`
/// as objects or as JSON strings, optional fields missing, extra fields ignored, numbers where
/// strings belong, a UTF-8 byte order mark or whitespace before the JSON, and a protocol answer
/// carried by a non-2xx status (its code is reported, not lost). Anything that is not a protocol
/// answer is a `carrier_bad_response` that describes the body by its redacted shape only; an echo
/// of another msgid is caught.
public enum CMCCReplyParser {
    /// Parses a login reply; `expectedMsgid` is the msgid we sent.
    public static func login(status: Int, contentType: String?, body: [UInt8], expectedMsgid: String) throws(PassgateError) -> CMCCLoginReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { object in
            object["resultCode"] != nil || object["resultcode"] != nil
        }
        try checkEcho(object["inresponseto"], field: "inresponseto", expected: expectedMsgid)
        let code = try resultCode(object["resultCode"] ?? object["resultcode"], field: "resultCode")
        return CMCCLoginReply(
            resultCode: code, msisdn: ProviderReply.string(object["msisdn"]), taskId: ProviderReply.string(object["taskId"]),
            desc: (ProviderReply.string(object["desc"]) ?? ProviderReply.string(object["resultDesc"])).map(Redaction.redact), httpStatus: status
        )
    }

    /// Parses a number-verification reply; `expectedMsgId` is the header msgId we sent.
    public static func verify(status: Int, contentType: String?, body: [UInt8], expectedMsgId: String) throws(PassgateError) -> CMCCVerifyReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { object in
            object["header"] != nil
        }
        guard let header = try nested(object["header"], field: "header") else { throw ProviderReply.badReply(.missingField("header")) }
        let replyBody = try nested(object["body"], field: "body") ?? .object([])
        try checkEcho(header["msgId"], field: "header.msgId", expected: expectedMsgId)
        let rawCode = header["resultCode"] ?? header["resultcode"]
        var code = try resultCode(rawCode, field: "header.resultCode")
        // A numeric 0 or 1 is how a careless JSON encoder writes "000"/"001". A string is taken as
        // sent: " 00" or "0" padded would turn an unknown code into a match.
        if case .number? = rawCode, code.count < 3, code.allSatisfy(\.isNumber) { code = String(repeating: "0", count: 3 - code.count) + code }
        return CMCCVerifyReply(
            resultCode: code, taskId: ProviderReply.string(replyBody["taskId"]), resultDesc: ProviderReply.string(replyBody["resultDesc"]).map(Redaction.redact), httpStatus: status
        )
    }

    /// A result code as the tables spell them (CMCC's are 3 or 6 digits), with room for what a
    /// careless encoder writes (`-1`, `1.5`): 1-8 ASCII letters, digits, `.`, `_` or `-`, and no
    /// run of more than 6 digits. Anything else is not a code but a broken reply, and is not
    /// echoed: a phone number must never pass for a raw code.
    private static func resultCode(_ value: ParsedJSON?, field: String) throws(PassgateError) -> String {
        guard let raw = ProviderReply.string(value) else { throw ProviderReply.badReply(.missingField(field)) }
        let code = raw.trimmingASCIISpaces
        // One pass, no allocation: every reply goes through here.
        var digitRun = 0, longestRun = 0, count = 0, allowed = true
        for byte in code.utf8 {
            count += 1
            digitRun = (48...57).contains(byte) ? digitRun + 1 : 0
            longestRun = max(longestRun, digitRun)
            allowed = allowed && (isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-"))
        }
        guard (1...8).contains(count), longestRun <= 6, allowed else {
            throw ProviderReply.badReply(.malformedField(field, detail: "is not a CMCC result code (\(code.utf8.count) characters; codes are 3 or 6 digits)"))
        }
        return code
    }

    private static func nested(_ value: ParsedJSON?, field: String) throws(PassgateError) -> ParsedJSON? {
        switch value {
        case nil, .null: return nil
        case .object: return value
        case .string(let text):
            guard let object = try? ParsedJSON.parse(text.utf8), case .object = object else {
                throw ProviderReply.badReply(.malformedField(field, detail: "is a string that is not a JSON object"))
            }
            return object
        default: throw ProviderReply.badReply(.malformedField(field, detail: "is neither an object nor a JSON string"))
        }
    }

    /// The echo may be absent (some error replies omit it); when present it must be ours.
    private static func checkEcho(_ value: ParsedJSON?, field: String, expected: String) throws(PassgateError) {
        guard let value = ProviderReply.string(value) else { return }
        guard asciiCaseInsensitiveEqual(value, expected) else {
            throw ProviderReply.badReply(.msgidMismatch(expected: expected, received: String(Redaction.redact(String(value.prefix(64))))))
        }
    }

    /// msgids are ASCII; Foundation's `caseInsensitiveCompare` would go through ICU with a locale
    /// on every reply. Bytes outside A-Z/a-z must match exactly.
    /// Compared over contiguous bytes, not by zipping two `String.UTF8View`s: every reply passes here.
    static func asciiCaseInsensitiveEqual(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for index in 0..<x.count where x[index] != y[index] {
                    let lower = x[index] | 0x20
                    guard lower == y[index] | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
    }
}

extension CMCCReplyParser {
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }
}
