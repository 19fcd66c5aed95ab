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
        let object = try jsonObject(status: status, contentType: contentType, body: body) { object in
            object["resultCode"] != nil || object["resultcode"] != nil
        }
        try checkEcho(object["inresponseto"], field: "inresponseto", expected: expectedMsgid)
        let code = try resultCode(object["resultCode"] ?? object["resultcode"], field: "resultCode")
        return CMCCLoginReply(
            resultCode: code, msisdn: string(object["msisdn"]), taskId: string(object["taskId"]),
            desc: (string(object["desc"]) ?? string(object["resultDesc"])).map(Redaction.redact), httpStatus: status
        )
    }

    /// Parses a number-verification reply; `expectedMsgId` is the header msgId we sent.
    public static func verify(status: Int, contentType: String?, body: [UInt8], expectedMsgId: String) throws(PassgateError) -> CMCCVerifyReply {
        let object = try jsonObject(status: status, contentType: contentType, body: body) { object in
            object["header"] != nil
        }
        guard let header = try nested(object["header"], field: "header") else { throw badReply(.missingField("header")) }
        let replyBody = try nested(object["body"], field: "body") ?? .object([])
        try checkEcho(header["msgId"], field: "header.msgId", expected: expectedMsgId)
        var code = try resultCode(header["resultCode"] ?? header["resultcode"], field: "header.resultCode")
        // A numeric 0 or 1 is how a careless JSON encoder writes "000"/"001".
        if code.count < 3, code.allSatisfy(\.isNumber) { code = String(repeating: "0", count: 3 - code.count) + code }
        return CMCCVerifyReply(
            resultCode: code, taskId: string(replyBody["taskId"]), resultDesc: string(replyBody["resultDesc"]).map(Redaction.redact), httpStatus: status
        )
    }

    /// The reply as a JSON object, or a `carrier_bad_response` saying what came instead. A
    /// non-2xx reply is used only when it is a protocol answer (`isAnswer`): then the carrier's
    /// own code says more than the status.
    static func jsonObject(status: Int, contentType: String?, body: [UInt8], isAnswer: (ParsedJSON) -> Bool) throws(PassgateError) -> ParsedJSON {
        let looksHTML = (contentType.map(mentionsHTML) ?? false) || startsLikeHTML(body)
        let shape = { BodyShape(body: body, contentType: contentType) }
        if looksHTML { throw badReply(.html(status: status, body: shape())) }
        let parsed: ParsedJSON
        let start = payloadStart(body)
        do {
            // The slice only when there is padding to skip: replies almost never have any.
            parsed = try start == 0 ? ParsedJSON.parse(body) : ParsedJSON.parse(body[start...])
        } catch {
            let problem: PassgateError.ReplyProblem = (200..<300).contains(status) ? .notJSON(body: shape()) : .httpStatus(status, body: shape())
            // The offset counts from the start of the body, as someone reading a capture would.
            throw badReply(problem, underlying: JSONSyntaxError(offset: start + error.offset, problem: error.problem))
        }
        guard case .object = parsed, (200..<300).contains(status) || isAnswer(parsed) else {
            throw badReply((200..<300).contains(status) ? .notJSON(body: shape()) : .httpStatus(status, body: shape()))
        }
        return parsed
    }

    /// Where the JSON starts: after a UTF-8 byte order mark and any whitespace or NUL padding,
    /// which some gateways put in front of the answer.
    static func payloadStart(_ body: [UInt8]) -> Int {
        var index = body.count >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF ? 3 : 0
        while index < body.count, isPadding(body[index]) { index += 1 }
        return index
    }

    /// NUL, tab, line feed, vertical tab, form feed, carriage return, space.
    private static func isPadding(_ byte: UInt8) -> Bool {
        byte == 0x00 || byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// A result code as the tables spell them (CMCC's are 3 or 6 digits), with room for what a
    /// careless encoder writes (`-1`, `1.5`): 1-8 ASCII letters, digits, `.`, `_` or `-`, and no
    /// run of more than 6 digits. Anything else is not a code but a broken reply, and is not
    /// echoed: a phone number must never pass for a raw code.
    private static func resultCode(_ value: ParsedJSON?, field: String) throws(PassgateError) -> String {
        guard let raw = string(value) else { throw badReply(.missingField(field)) }
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
            throw badReply(.malformedField(field, detail: "is not a CMCC result code (\(code.utf8.count) characters; codes are 3 or 6 digits)"))
        }
        return code
    }

    private static func nested(_ value: ParsedJSON?, field: String) throws(PassgateError) -> ParsedJSON? {
        switch value {
        case nil, .null: return nil
        case .object: return value
        case .string(let text):
            guard let object = try? ParsedJSON.parse(text.utf8), case .object = object else {
                throw badReply(.malformedField(field, detail: "is a string that is not a JSON object"))
            }
            return object
        default: throw badReply(.malformedField(field, detail: "is neither an object nor a JSON string"))
        }
    }

    /// The echo may be absent (some error replies omit it); when present it must be ours.
    private static func checkEcho(_ value: ParsedJSON?, field: String, expected: String) throws(PassgateError) {
        guard let value = string(value) else { return }
        guard asciiCaseInsensitiveEqual(value, expected) else {
            throw badReply(.msgidMismatch(expected: expected, received: String(Redaction.redact(String(value.prefix(64))))))
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

    /// A string value; numbers are accepted and written back as digits.
    static func string(_ value: ParsedJSON?) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let text): return numberText(text)
        default: return nil
        }
    }

    /// A JSON number as the digits a careless encoder meant: integers as written, `103000.0` or
    /// `1.03e5` as `103000`, other fractions in Swift's shortest form (what `NSNumber.stringValue`
    /// gave for the codes carriers send).
    static func numberText(_ text: String) -> String {
        if text.utf8.allSatisfy({ (48...57).contains($0) || $0 == UInt8(ascii: "-") }) { return text }
        guard let value = Double(text), value.isFinite else { return text }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A `carrier_bad_response` for `problem`; `underlying` keeps the JSON parser's own error
    /// (offset and problem) for the logs.
    static func badReply(_ problem: PassgateError.ReplyProblem, underlying: (any Error & Sendable)? = nil) -> PassgateError {
        let detail: String = switch problem {
        case .html: "The carrier (or a proxy in front of it) answered with an HTML page: check the base URL and any egress proxy."
        case .httpStatus(let status, _): "The carrier answered HTTP \(status) without a protocol answer."
        case .notJSON: "The carrier's reply is not a JSON object (truncated or garbled)."
        case .missingField(let field): "The carrier's reply lacks '\(field)'."
        case .malformedField(let field, let detail): "The carrier's reply field '\(field)' \(detail)."
        case .msgidMismatch: "The carrier's reply answers a different msgid: possibly a misrouted or cached reply."
        }
        return PassgateError(.carrierBadResponse, .reply(problem), message: detail + " The token may be spent.", underlying: underlying)
    }

    /// Whether a Content-Type names HTML (`text/html`, `application/xhtml+xml`), in any case. Over
    /// bytes: `String.contains` with a string argument is Foundation's `range(of:)` via NSString.
    static func mentionsHTML(_ contentType: String) -> Bool {
        let bytes = Array(contentType.utf8)
        guard bytes.count >= 4 else { return false }
        let html: [UInt8] = Array("html".utf8)
        return (0...(bytes.count - 4)).contains { start in
            (0..<4).allSatisfy { bytes[start + $0] | 0x20 == html[$0] }
        }
    }

    private static func startsLikeHTML(_ body: [UInt8]) -> Bool {
        let start = payloadStart(body)
        return start < body.count && body[start] == UInt8(ascii: "<")
    }
}

extension CMCCReplyParser {
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }
}

extension String {
    /// Without leading and trailing ASCII spaces and tabs.
    var trimmingASCIISpaces: String {
        // The common case, nothing to trim, without copying the bytes.
        guard let head = utf8.first, let tail = utf8.last, head == 0x20 || head == 0x09 || tail == 0x20 || tail == 0x09 else { return self }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return first == 0 && last == bytes.count - 1 ? self : String(decoding: bytes[first...last], as: UTF8.self)
    }
}
