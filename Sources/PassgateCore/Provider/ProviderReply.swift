/// Reading a provider's HTTP reply the way every provider needs it: the JSON object inside
/// (after a byte order mark or padding), HTML pages and gateway error statuses recognised, and a
/// `carrier_bad_response` that describes a body by its redacted shape only, never quotes it.
/// Provider parsers build on it and add their own fields and codes.
public enum ProviderReply {
    /// The reply as a JSON object, or a `carrier_bad_response` saying what came instead. A
    /// non-2xx reply is used only when it is a protocol answer (`isAnswer`): then the carrier's
    /// own code says more than the status.
    public static func jsonObject(status: Int, contentType: String?, body: [UInt8], isAnswer: (ParsedJSON) -> Bool) throws(PassgateError) -> ParsedJSON {
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
    public static func payloadStart(_ body: [UInt8]) -> Int {
        var index = body.count >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF ? 3 : 0
        while index < body.count, isPadding(body[index]) { index += 1 }
        return index
    }

    /// NUL, tab, line feed, vertical tab, form feed, carriage return, space.
    private static func isPadding(_ byte: UInt8) -> Bool {
        byte == 0x00 || byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// A numeric result code as the aggregators send it (a JSON number, or a string of digits),
    /// blanks trimmed: 1-6 ASCII digits. Anything else is not a code, and is not echoed in the
    /// error (a longer run of digits could be a phone number). `usual` says what the provider's
    /// codes look like ("4 digits"); `maxDigits` is 7 only for a provider whose codes have 7
    /// (MobTech), which then checks their shape itself.
    public static func digitCode(
        _ value: ParsedJSON?, field: String, provider: String, usual: String, maxDigits: Int = 6
    ) throws(PassgateError) -> String {
        guard let raw = string(value) else { throw badReply(.missingField(field)) }
        let code = raw.trimmingASCIISpaces
        guard (1...min(maxDigits, 7)).contains(code.utf8.count), code.allUTF8({ (48...57).contains($0) }) else {
            throw badReply(.malformedField(field, detail: "is not a \(provider) code (\(code.utf8.count) characters; codes are \(usual))"))
        }
        return code
    }

    /// A string value; numbers are accepted and written back as digits.
    public static func string(_ value: ParsedJSON?) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let text): return numberText(text)
        default: return nil
        }
    }

    /// A JSON number as the digits a careless encoder meant: integers as written, `103000.0` or
    /// `1.03e5` as `103000`, other fractions in Swift's shortest form (what `NSNumber.stringValue`
    /// gave for the codes carriers send).
    public static func numberText(_ text: String) -> String {
        if text.allUTF8({ (48...57).contains($0) || $0 == UInt8(ascii: "-") }) { return text }
        guard let value = Double(text), value.isFinite else { return text }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A `carrier_bad_response` for `problem`; `underlying` keeps the JSON parser's own error
    /// (offset and problem) for the logs.
    public static func badReply(_ problem: PassgateError.ReplyProblem, underlying: (any Error & Sendable)? = nil) -> PassgateError {
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
    /// The last four bytes, lowercased, slide through one word: every reply's Content-Type is
    /// checked, and copying it into an array cost more than the scan.
    public static func mentionsHTML(_ contentType: String) -> Bool {
        // Before four bytes are in, the top byte is still 0 and cannot match.
        var window: UInt32 = 0
        for byte in contentType.utf8 {
            window = window << 8 | UInt32(byte | 0x20)
            if window == 0x6874_6D6C { return true }  // "html"
        }
        return false
    }

    private static func startsLikeHTML(_ body: [UInt8]) -> Bool {
        let start = payloadStart(body)
        return start < body.count && body[start] == UInt8(ascii: "<")
    }
}

extension String {
    /// Without leading and trailing ASCII spaces and tabs.
    public var trimmingASCIISpaces: String {
        // The common case, nothing to trim, without copying the bytes.
        guard let head = utf8.first, let tail = utf8.last, head == 0x20 || head == 0x09 || tail == 0x20 || tail == 0x09 else { return self }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return first == 0 && last == bytes.count - 1 ? self : String(decoding: bytes[first...last], as: UTF8.self)
    }
}
