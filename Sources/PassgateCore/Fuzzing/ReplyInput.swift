/// A carrier's HTTP reply as a fuzz input, for every provider's reply fuzzing (`ReplyFuzzing`, the
/// host in `PassgateFuzzing`): the first byte picks the status and Content-Type, the rest is the body.
///
/// Bits 0-2 pick the status, bits 3-4 the Content-Type, bit 7 asks for the request id in upper
/// case. So a seed file's first character reads: '`' and a-g JSON with statuses 0-7, h-o HTML,
/// 0-7 no Content-Type, 8-? text/plain; e.g. "a" 200 JSON, "f" 500 JSON, "n" 500 HTML, "6" 500 none.
public struct ReplyInput: Sendable {
    public static let statuses = [200, 200, 201, 204, 302, 404, 500, 502]
    public static let contentTypes: [String?] = ["application/json;charset=UTF-8", "text/html; charset=utf-8", nil, "text/plain"]

    public let status: Int
    public let contentType: String?
    /// What the carrier sent; a provider may put the prepared call's ids in (``ReplyFuzzing``).
    public var body: [UInt8]
    /// Whether the reply echoes the request id (msgid) in upper case, so its echo is compared across case.
    public let upperCaseID: Bool

    /// Nil for an empty input.
    public init?(_ input: [UInt8]) {
        guard let selector = input.first else { return nil }
        status = Self.statuses[Int(selector & 7)]
        contentType = Self.contentTypes[Int(selector >> 3 & 3)]
        upperCaseID = selector & 0x80 != 0
        body = Array(input.dropFirst())
    }

    /// The reply as the transport would deliver it.
    public var reply: CarrierHTTPReply { CarrierHTTPReply(status: status, contentType: contentType, body: body) }

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
