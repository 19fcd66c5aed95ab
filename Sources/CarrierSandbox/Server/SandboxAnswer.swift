import PassgateCore

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
