extension PassgateError {
    /// The layer an error comes from, with its facts. The layers stay apart: the caller's request,
    /// the transport (nothing or only part of an exchange happened), the carrier's HTTP reply, and
    /// the carrier's own protocol answer.
    public enum Reason: Sendable, CustomStringConvertible {
        /// The caller's request: a field (or header) and what is wrong with it.
        case request(field: String?, problem: String)
        /// The HTTP exchange with the carrier did not complete.
        case transport(TransportFailure)
        /// The carrier's reply was not a valid protocol answer.
        case reply(ReplyProblem)
        /// The carrier answered with a non-success result code.
        case carrier(CarrierAnswer)
        /// The carrier's success answer carried a phone number we could not decrypt or validate.
        case decryption(detail: String)
        /// Something local: rate limit, draining, a bug.
        case local(String)

        public var description: String {
            switch self {
            case .request(let field, let problem): "request\(field.map { " field \($0)" } ?? ""): \(problem)"
            case .transport(let failure): "transport: \(failure)"
            case .reply(let problem): "reply: \(problem)"
            case .carrier(let answer): "carrier: \(answer)"
            case .decryption(let detail): "decryption: \(detail)"
            case .local(let detail): "local: \(detail)"
            }
        }
    }

    /// Why a carrier reply could not be used.
    public enum ReplyProblem: Sendable, Equatable, CustomStringConvertible {
        /// A non-2xx HTTP status; `snippet` is the start of the body.
        case httpStatus(Int, snippet: String)
        /// An HTML page instead of JSON (a proxy, WAF or error page).
        case html(status: Int, snippet: String)
        /// A body that is not a JSON object (truncated, empty, plain text).
        case notJSON(snippet: String)
        /// A required field is absent.
        case missingField(String)
        /// A field has the wrong type or shape.
        case malformedField(String, detail: String)
        /// The reply answers another request (`inresponseto` / `msgId` differs from ours).
        case msgidMismatch(expected: String, received: String)

        public var description: String {
            switch self {
            case .httpStatus(let status, let snippet): "HTTP \(status): \(snippet)"
            case .html(let status, let snippet): "HTML page with HTTP \(status): \(snippet)"
            case .notJSON(let snippet): "not a JSON object: \(snippet)"
            case .missingField(let field): "missing field '\(field)'"
            case .malformedField(let field, let detail): "field '\(field)' \(detail)"
            case .msgidMismatch(let expected, let received): "reply is for msgid \(received), we sent \(expected)"
            }
        }
    }
}

/// A carrier's own answer: kept raw so an operator can look it up in the carrier's docs.
public struct CarrierAnswer: Sendable, Equatable, CustomStringConvertible {
    /// Provider id, e.g. `cmcc`.
    public let provider: String
    /// The raw result code, e.g. `104201`.
    public let code: String
    /// The carrier's description when it sent one, else the documented meaning.
    public let message: String?

    public init(provider: String, code: String, message: String?) {
        self.provider = provider
        self.code = code
        self.message = message
    }

    public var description: String { "\(provider) \(code)\(message.map { " (\($0))" } ?? "")" }
}
