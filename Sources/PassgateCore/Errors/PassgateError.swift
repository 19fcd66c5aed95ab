/// The one error type callers of Passgate see: a stable `code` (the REST contract), a
/// layer-specific `reason` with the facts, a human `message` that says what to check, and the
/// underlying error kept for logs only.
public struct PassgateError: Error, Sendable, CustomStringConvertible {
    /// Stable machine-readable code; the REST `error.code`.
    public let code: Code
    /// Where it went wrong and the facts of it (kept apart per layer).
    public let reason: Reason
    /// What happened and what to do, in English, safe to return to API callers.
    public let message: String
    /// The error this one wraps (OpenSSL, transport, decoding), for logs; never sent to callers.
    public let underlying: (any Error & Sendable)?
    /// When to try again, for `rate_limited` and `service_draining` (the `Retry-After` header).
    public var retryAfterSeconds: Int?
    /// Whether the same request with the same token may succeed if sent again: the code's default
    /// unless the carrier's code says more (`ProviderResultCode`). Never true when the token may be spent.
    public let retryable: Bool
    /// What the calling backend should do next: the code's default unless the carrier's code says more.
    public let action: Action

    public init(
        _ code: Code, _ reason: Reason, message: String? = nil, underlying: (any Error & Sendable)? = nil,
        retryable: Bool? = nil, action: Action? = nil
    ) {
        self.code = code
        self.reason = reason
        self.message = message ?? code.defaultMessage
        self.underlying = underlying
        self.retryable = retryable ?? code.retryable
        self.action = action ?? code.defaultAction
    }


    /// The carrier's own answer, when the carrier answered.
    public var carrierAnswer: CarrierAnswer? {
        if case .carrier(let answer) = reason { return answer }
        return nil
    }

    public var description: String {
        var text = "\(code.rawValue): \(message) [\(reason)]"
        if let underlying { text += " caused by: \(underlying)" }
        return text
    }
}

extension PassgateError {
    /// A caller's input was wrong; `field` is named in the message.
    public static func invalidRequest(field: String, _ problem: String) -> PassgateError {
        PassgateError(.invalidRequest, .request(field: field, problem: problem), message: "\(field): \(problem)")
    }

    /// A bug or an impossible state: details go to logs, the caller gets a generic message.
    public static func internalError(_ detail: String, underlying: (any Error & Sendable)? = nil) -> PassgateError {
        PassgateError(.internalError, .local(detail), underlying: underlying)
    }
}
