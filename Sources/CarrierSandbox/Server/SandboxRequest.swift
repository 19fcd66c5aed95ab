/// One complete HTTP request as the engine sees it (no NIO types, so the rules stay plain code).
struct SandboxRequest: Sendable {
    var method: String
    /// The path without query string.
    var path: String
    var body: [UInt8]
    /// The peer's IP address text (`127.0.0.1`, `::1`), IPv4-mapped IPv6 unmapped.
    var peerIP: String?
    /// The headers the aggregators' protocols check (HTTP Basic authentication, the body's type).
    var authorization: String?
    var contentType: String?

    init(method: String, uri: String, body: [UInt8], peerIP: String?, authorization: String? = nil, contentType: String? = nil) {
        self.method = method
        self.path = String(uri.prefix { $0 != "?" && $0 != "#" })
        self.body = body
        self.peerIP = peerIP.map(Self.unmapped)
        self.authorization = authorization
        self.contentType = contentType
    }

    /// `::ffff:10.0.0.1` -> `10.0.0.1`, so an allow list of IPv4 addresses works on dual-stack listeners.
    static func unmapped(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), lowered.contains(".") { return String(address.dropFirst(7)) }
        return address
    }
}

/// What to do with a request: answer (possibly after a delay), reset the connection, or hold it.
struct SandboxAnswer: Sendable {
    enum Action: Sendable {
        case respond(status: Int, contentType: String?, body: [UInt8], headers: [(String, String)])
        /// Close with `SO_LINGER 0` (a TCP RST) without answering.
        case reset
        /// Never answer; the connection stays open until shutdown.
        case hold
    }

    var action: Action
    var delayMs: Int = 0

    static let jsonContentType = "application/json;charset=UTF-8"

    static func json(_ status: Int, _ body: [UInt8], headers: [(String, String)] = []) -> SandboxAnswer {
        SandboxAnswer(action: .respond(status: status, contentType: jsonContentType, body: body, headers: headers))
    }

    /// `{"error": message}` with `status`.
    static func error(_ status: Int, _ message: String, headers: [(String, String)] = []) -> SandboxAnswer {
        json(status, JSONWriter.object(["error": message]), headers: headers)
    }
}
