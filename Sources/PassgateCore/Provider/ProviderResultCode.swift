/// One result code of a provider and what Passgate makes of it: the normalized error, whether the
/// same token can still succeed, and what the calling backend should do. Every provider's table
/// is made of these, so the error envelope, the docs and the runbook read the same for all.
public struct ProviderResultCode: Sendable, Equatable {
    /// Where the code's meaning comes from.
    public enum Source: String, Sendable, CaseIterable {
        /// The provider's own published documentation.
        case published
        /// Reported by integrators (issue trackers, Q&A), not in the provider's documentation.
        case reported
        /// Third-party client code handles it this way; no documentation says so.
        case implementation
    }

    /// The provider's id (`cmcc`) and the name its messages use (`CMCC`).
    public let provider: String
    public let providerName: String
    /// The raw code as the provider sends it.
    public let code: String
    /// The documented meaning, in English.
    public let meaning: String
    /// The normalized error, or `nil` for a success code.
    public let error: PassgateError.Code?
    /// Whether the same token can still succeed. True only where the provider's answer says the
    /// token was not looked at; where the documentation gives no hint, false (a useless retry of a
    /// spent token only earns a "token invalid" and hides the real cause).
    public let retryable: Bool
    /// What the calling backend should do.
    public let action: PassgateError.Action
    /// What an integrator or operator should check; appended to the error message.
    public let hint: String
    public let source: Source

    public init(
        provider: String, providerName: String, _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false,
        action: PassgateError.Action? = nil, source: Source = .published, _ hint: String = ""
    ) {
        self.provider = provider
        self.providerName = providerName
        self.code = code
        self.meaning = meaning
        self.error = error
        self.retryable = retryable
        self.action = action ?? error?.defaultAction ?? .retry
        self.hint = hint
        self.source = source
    }

    /// The normalized error for this code, carrying the raw answer. `providerMessage` is the
    /// reply's own message when it sent one (already redacted by the parser).
    public func makeError(providerMessage: String?) -> PassgateError {
        let code = error ?? .carrierError
        // The code's own message says what its default action says ("get a new token"); where this
        // provider code calls for another action, that message would contradict the hint.
        let base = action == code.defaultAction ? code.defaultMessage : "The carrier answered with an error."
        let described = "\(base) (\(providerName) \(self.code): \(meaning))"
        let message = hint.isEmpty ? described : "\(described) \(hint)"
        let answer = CarrierAnswer(provider: provider, code: self.code, message: providerMessage ?? meaning)
        return PassgateError(code, .carrier(answer), message: message, retryable: retryable, action: action)
    }
}

/// A provider's codes by raw value; a code it does not document becomes `carrier_error` with the
/// raw code kept, never a guess.
public struct ProviderResultCodeTable: Sendable {
    public let provider: String
    public let providerName: String
    public let entries: [String: ProviderResultCode]
    /// What an undocumented code is told to do (whom to ask, what to quote).
    private let unknownHint: String

    public init(provider: String, providerName: String, unknownHint: String, _ entries: [ProviderResultCode]) {
        self.provider = provider
        self.providerName = providerName
        self.unknownHint = unknownHint
        self.entries = Dictionary(uniqueKeysWithValues: entries.map { ($0.code, $0) })
    }

    /// The entry for `code`, or an undocumented code's: a carrier error, not retryable (nothing
    /// says the token survived), for the provider to explain.
    public subscript(code: String) -> ProviderResultCode {
        entries[code]
            ?? ProviderResultCode(
                provider: provider, providerName: providerName, code, "undocumented result code", .carrierError, action: .contactProvider,
                unknownHint)
    }

    /// Every entry, ordered by code (for docs and tests).
    public var sorted: [ProviderResultCode] { entries.values.sorted { $0.code < $1.code } }
}
