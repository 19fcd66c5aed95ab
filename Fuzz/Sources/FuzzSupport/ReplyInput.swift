import PassgateCore

/// A carrier's HTTP reply as a fuzz input, shared by the reply-parser targets: the first byte picks
/// the status and Content-Type, the rest is the body.
///
/// Bits 0-2 pick the status, bits 3-4 the Content-Type, bit 7 asks for the request id in upper
/// case. So a seed file's first character reads: '`' and a-g JSON with statuses 0-7, h-o HTML,
/// 0-7 no Content-Type, 8-? text/plain; e.g. "a" 200 JSON, "f" 500 JSON, "n" 500 HTML, "6" 500 none.
public struct ReplyInput: Sendable {
    public static let statuses = [200, 200, 201, 204, 302, 404, 500, 502]
    public static let contentTypes: [String?] = ["application/json;charset=UTF-8", "text/html; charset=utf-8", nil, "text/plain"]

    public let status: Int
    public let contentType: String?
    public let body: [UInt8]
    /// Whether to send the request id (msgid) in upper case, so its echo is compared across case.
    public let upperCaseID: Bool

    /// Nil for an empty input.
    public init?(_ input: [UInt8]) {
        guard let selector = input.first else { return nil }
        status = Self.statuses[Int(selector & 7)]
        contentType = Self.contentTypes[Int(selector >> 3 & 3)]
        upperCaseID = selector & 0x80 != 0
        body = Array(input.dropFirst())
    }

    /// The body as a JSON object when the reply may be a protocol answer at all (the rule every
    /// JSON carrier API shares): not HTML by Content-Type or by its first byte after a byte order
    /// mark and blanks, a body that is a JSON object after those, and either a 2xx status or an
    /// object that `isAnswer` says is the carrier's own answer (whose code then says more than the
    /// status). Nil when a parser must reject it.
    public func protocolObject(isAnswer: (ParsedJSON) -> Bool) -> ParsedJSON? {
        let htmlType = contentType?.lowercased().contains("html") ?? false
        var start = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < body.count, [0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20].contains(body[start]) { start += 1 }
        let firstByte = start < body.count ? body[start] : nil
        guard !htmlType, firstByte != UInt8(ascii: "<"),
              let parsed = try? ParsedJSON.parse(Array(body[start...])), case .object = parsed,
              (200..<300).contains(status) || isAnswer(parsed)
        else { return nil }
        return parsed
    }
}

/// No digits in an error text longer than 6: a phone number from a reply must never reach an
/// error, a log line or an API answer. Default on; `PASSGATE_FUZZ_REDACTION=0` turns it off.
private let checkRedaction = fuzzSwitch("PASSGATE_FUZZ_REDACTION", default: true)

/// What a reply parser may throw: a PassgateError of the reply layer (`carrier_bad_response`) or a
/// carrier's own answer, whose texts carry no run of 7+ digits.
public func checkReplyError(_ error: any Error, parser: String) {
    guard let error = error as? PassgateError else { Invariant.fail("\(parser) threw \(type(of: error)): \(error)") }
    switch error.reason {
    case .reply: Invariant.check(error.code == .carrierBadResponse, "\(parser): reply problem with code \(error.code.rawValue)")
    case .carrier: break  // a carrier answer (any carrier code), once a parser maps result codes
    default: Invariant.fail("\(parser) threw a \(error.code.rawValue) from another layer: \(error)")
    }
    guard checkRedaction else { return }
    for (name, text) in [("description", String(describing: error)), ("message", error.message)] {
        let run = longestDigitRun(text)
        Invariant.check(run < 7, "\(parser) error \(name) has a run of \(run) digits (PASSGATE_FUZZ_REDACTION): \(text)")
    }
}

/// Whether an echoed request id equals `sent` in any ASCII letter case (what the parsers accept).
public func isEcho(_ text: String, of sent: String) -> Bool {
    text.utf8.count == sent.utf8.count && zip(text.utf8, sent.utf8).allSatisfy { a, b in
        a == b || (a | 0x20 == b | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(a | 0x20))
    }
}
