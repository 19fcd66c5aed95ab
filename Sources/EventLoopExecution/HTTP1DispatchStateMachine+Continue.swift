import NIOHTTP1

/// `Expect: 100-continue` (RFC 9110, section 10.1.1): a client that sends it waits for the server
/// before it sends its body (curl waits a second, then sends anyway). An HTTP/1.1 server must
/// answer such a head at once: `100 Continue` to have the body sent, or its final answer if the
/// head alone decides it. The final answer the head alone decides here is a body declared longer
/// than the channel collects; everything else is the responder's to decide, once it has the body.
extension HTTP1DispatchStateMachine {
    enum Expectation: Equatable {
        /// No interim answer is asked for (no expectation, HTTP/1.0, or no body to follow).
        case none
        /// Ask for the body with `100 Continue`.
        case `continue`
        /// The declared body is over the limit: answer now, without reading it.
        case bodyOverLimit
    }

    /// What `head` asks of the server before its body is sent.
    static func expectation(of head: HTTPRequestHead, bodyLimit: Int) -> Expectation {
        // Asked of every request: the common answer, no `Expect` at all, without building the
        // field's values. An HTTP/1.0 client cannot read an interim answer: its expectation is
        // ignored. The parser has trimmed the field's value.
        guard head.headers.contains(name: "expect"),
            head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1),
            head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" })
        else { return .none }
        if head.headers["transfer-encoding"].contains(where: { $0.lowercased().contains("chunked") }) { return .continue }
        guard let declared = head.headers.first(name: "content-length").flatMap({ Int($0) }), declared > 0 else {
            return .none
        }
        return declared > bodyLimit ? .bodyOverLimit : .continue
    }
}
