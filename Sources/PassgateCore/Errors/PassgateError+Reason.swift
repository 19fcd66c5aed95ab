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

    /// Why a carrier reply could not be used. Bodies appear only as their redacted `BodyShape`.
    public enum ReplyProblem: Sendable, Equatable, CustomStringConvertible {
        /// A non-2xx HTTP status with a body that is not the provider's protocol answer.
        case httpStatus(Int, body: BodyShape)
        /// An HTML page instead of JSON (a proxy, WAF or error page).
        case html(status: Int, body: BodyShape)
        /// A body that is not a JSON object (truncated, empty, plain text).
        case notJSON(body: BodyShape)
        /// A required field is absent.
        case missingField(String)
        /// A field has the wrong type or shape.
        case malformedField(String, detail: String)
        /// The reply answers another request (`inresponseto` / `msgId` differs from ours);
        /// `received` is redacted.
        case msgidMismatch(expected: String, received: String)

        public var description: String {
            switch self {
            case .httpStatus(let status, let body): "HTTP \(status) with \(body)"
            case .html(let status, let body): "HTML page with HTTP \(status), \(body)"
            case .notJSON(let body): "not a JSON object: \(body)"
            case .missingField(let field): "missing field '\(field)'"
            case .malformedField(let field, let detail): "field '\(field)' \(detail)"
            case .msgidMismatch(let expected, let received): "reply is for msgid \(received), we sent \(expected)"
            }
        }

        /// Whether the reply says the carrier's side is in trouble (an error page, a 5xx), not
        /// just this request: such replies count against the base URL's circuit breaker.
        public var isServerFailure: Bool {
            switch self {
            case .html: true
            case .httpStatus(let status, _): status >= 500
            case .notJSON, .missingField, .malformedField, .msgidMismatch: false
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
