/// What a provider's unusable reply looked like, safe to log and to return in an error: its
/// length, its content type, and its first bytes with sensitive fields and long digit runs
/// replaced (`Redaction`). A body is never kept verbatim anywhere else.
public struct BodyShape: Sendable, Equatable, CustomStringConvertible {
    /// How many of the first bytes are shown (after redaction, non-printable bytes as `.`).
    public static let shownBytes = 96
    /// How many bytes are redacted to produce them: a sensitive value that starts inside the
    /// shown part is found and replaced even if it ends beyond it.
    static let scannedBytes = 4096

    /// The body's length in bytes.
    public let length: Int
    /// The `Content-Type` header as sent, reduced to its safe characters; `nil` when absent.
    public let contentType: String?
    /// The start of the body, redacted and made printable.
    public let start: String

    public init(body: [UInt8], contentType: String?) {
        length = body.count
        self.contentType = contentType.map(Self.safeContentType)
        let redacted = Redaction.redact(Array(body.prefix(Self.scannedBytes)))
        var shown = redacted.prefix(Self.shownBytes).map { byte -> UInt8 in
            switch byte {
            case 0x09, 0x0A, 0x0D: UInt8(ascii: " ")
            case 0x20...0x7E, 0x80...: byte
            default: UInt8(ascii: ".")
            }
        }
        if redacted.count > Self.shownBytes || body.count > Self.scannedBytes { shown.append(contentsOf: "…".utf8) }
        start = String(decoding: shown, as: UTF8.self)
    }

    public var description: String {
        guard length > 0 else { return "an empty body" + (contentType.map { " (\($0))" } ?? "") }
        return "\(length) bytes" + (contentType.map { " of \($0)" } ?? "") + ": \(start)"
    }

    /// Media types are short tokens; anything else a broken or hostile server sends is cut.
    private static func safeContentType(_ value: String) -> String {
        let kept = value.utf8.prefix(64).filter { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || Array("/+.;=- _".utf8).contains(byte)
        }
        return Redaction.scrubDigits(String(decoding: kept, as: UTF8.self))
    }
}
