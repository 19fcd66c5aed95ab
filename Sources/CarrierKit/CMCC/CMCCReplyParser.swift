/// What a `loginTokenValidate` reply said.
public struct CMCCLoginReply: Sendable, Equatable {
    public let resultCode: String
    public let msisdn: String?
    public let taskId: String?
    public let desc: String?
}

/// What a `tokenValidate` reply said.
public struct CMCCVerifyReply: Sendable, Equatable {
    public let resultCode: String
    public let taskId: String?
    public let resultDesc: String?
}

/// Parses CMCC replies as real carriers send them: `resultCode` or `resultcode`, `header`/`body`
/// as objects or as JSON strings, optional fields missing, extra fields ignored, numbers where
/// strings belong. Anything that is not a protocol answer is a `carrier_bad_response` that says
/// what arrived; an echo of another msgid is caught.
public enum CMCCReplyParser {
    /// Parses a login reply; `expectedMsgid` is the msgid we sent.
    public static func login(status: Int, contentType: String?, body: [UInt8], expectedMsgid: String) throws -> CMCCLoginReply {
        let object = try jsonObject(status: status, contentType: contentType, body: body)
        try checkEcho(object["inresponseto"], field: "inresponseto", expected: expectedMsgid)
        guard let code = string(object["resultCode"]) ?? string(object["resultcode"]) else {
            throw badReply(.missingField("resultCode"))
        }
        return CMCCLoginReply(
            resultCode: code, msisdn: string(object["msisdn"]), taskId: string(object["taskId"]),
            desc: string(object["desc"]) ?? string(object["resultDesc"])
        )
    }

    /// Parses a number-verification reply; `expectedMsgId` is the header msgId we sent.
    public static func verify(status: Int, contentType: String?, body: [UInt8], expectedMsgId: String) throws -> CMCCVerifyReply {
        let object = try jsonObject(status: status, contentType: contentType, body: body)
        guard let header = try nested(object["header"], field: "header") else { throw badReply(.missingField("header")) }
        let replyBody = try nested(object["body"], field: "body") ?? .object([])
        try checkEcho(header["msgId"], field: "header.msgId", expected: expectedMsgId)
        guard var code = string(header["resultCode"]) ?? string(header["resultcode"]) else {
            throw badReply(.missingField("header.resultCode"))
        }
        // A numeric 0 or 1 is how a careless JSON encoder writes "000"/"001".
        if code.count < 3, code.allSatisfy(\.isNumber) { code = String(repeating: "0", count: 3 - code.count) + code }
        return CMCCVerifyReply(resultCode: code, taskId: string(replyBody["taskId"]), resultDesc: string(replyBody["resultDesc"]))
    }

    /// The reply as a JSON object, or a `carrier_bad_response` saying what came instead.
    static func jsonObject(status: Int, contentType: String?, body: [UInt8]) throws -> ParsedJSON {
        let looksHTML = (contentType.map(mentionsHTML) ?? false) || startsLikeHTML(body)
        guard (200..<300).contains(status) else {
            throw badReply(looksHTML ? .html(status: status, snippet: snippet(body)) : .httpStatus(status, snippet: snippet(body)))
        }
        if looksHTML { throw badReply(.html(status: status, snippet: snippet(body))) }
        guard let object = try? ParsedJSON.parse(body), case .object = object else {
            throw badReply(.notJSON(snippet: body.isEmpty ? "(empty body)" : snippet(body)))
        }
        return object
    }

    private static func nested(_ value: ParsedJSON?, field: String) throws -> ParsedJSON? {
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
    private static func checkEcho(_ value: ParsedJSON?, field: String, expected: String) throws {
        guard let value = string(value) else { return }
        guard asciiCaseInsensitiveEqual(value, expected) else {
            throw badReply(.msgidMismatch(expected: expected, received: value))
        }
    }

    /// msgids are ASCII; Foundation's `caseInsensitiveCompare` would go through ICU with a locale
    /// on every reply. Bytes outside A-Z/a-z must match exactly.
    ///
    /// Compared over contiguous bytes: `zip` over two `String.UTF8View`s cost 4,000 instructions
    /// per reply (bench/PROFILE.md, round 5).
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

    static func badReply(_ problem: PassgateError.ReplyProblem) -> PassgateError {
        let detail: String = switch problem {
        case .html: "The carrier (or a proxy in front of it) answered with an HTML page: check the base URL and any egress proxy."
        case .httpStatus(let status, _): "The carrier answered HTTP \(status)."
        case .notJSON: "The carrier's reply is not a JSON object (truncated or garbled)."
        case .missingField(let field): "The carrier's reply lacks '\(field)'."
        case .malformedField(let field, let detail): "The carrier's reply field '\(field)' \(detail)."
        case .msgidMismatch: "The carrier's reply answers a different msgid: possibly a misrouted or cached reply."
        }
        return PassgateError(.carrierBadResponse, .reply(problem), message: detail + " The token may be spent.")
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
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else { return false }
        return first == UInt8(ascii: "<")
    }

    /// The start of a body, printable, for messages and logs.
    static func snippet(_ body: [UInt8], limit: Int = 160) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
        let flattened = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }
        return String(flattened) + (body.count > limit ? "…" : "")
    }
}
