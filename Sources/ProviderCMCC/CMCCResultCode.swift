import PassgateCore
/// One CMCC result code and what Passgate makes of it: the normalized error, whether the same
/// token can still succeed, and what the calling backend should do.
public struct CMCCResultCode: Sendable, Equatable {
    /// Where the code is documented.
    public enum Source: String, Sendable {
        /// One of China Mobile's two published server result-code tables.
        case published
        /// Reported by integrators, not in the published tables (103102, 103420, 105312, 105313).
        case reported
    }

    /// The raw code as the carrier sends it.
    public let code: String
    /// The documented meaning, in English.
    public let meaning: String
    /// The normalized error, or `nil` for a success code.
    public let error: PassgateError.Code?
    /// Whether the same token can still succeed. True only where the carrier's answer says the
    /// token was not looked at; where the documentation gives no hint, false (a useless retry of a
    /// spent token only earns a 104201 and hides the real cause).
    public let retryable: Bool
    /// What the calling backend should do.
    public let action: PassgateError.Action
    /// What an integrator or operator should check; appended to the error message.
    public let hint: String
    public let source: Source

    init(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false,
        action: PassgateError.Action? = nil, source: Source = .published, _ hint: String = ""
    ) {
        self.code = code
        self.meaning = meaning
        self.error = error
        self.retryable = retryable
        self.action = action ?? error?.defaultAction ?? .retry
        self.hint = hint
        self.source = source
    }

    /// The normalized error for this code, carrying the raw answer. `carrierMessage` is the
    /// reply's own `desc`/`resultDesc` when it sent one (already redacted by the parser).
    func makeError(carrierMessage: String?) -> PassgateError {
        let code = error ?? .carrierError
        // The code's own message says what its default action says ("get a new token"); where this
        // carrier code calls for another action, that message would contradict the hint.
        let base = action == code.defaultAction ? code.defaultMessage : "The carrier answered with an error."
        let message = hint.isEmpty ? "\(base) (CMCC \(self.code): \(meaning))" : "\(base) (CMCC \(self.code): \(meaning)) \(hint)"
        let answer = CarrierAnswer(provider: CMCC.providerID, code: self.code, message: carrierMessage ?? meaning)
        return PassgateError(code, .carrier(answer), message: message, retryable: retryable, action: action)
    }

    /// An undocumented code: a carrier error with the raw code kept. Not retryable: nothing says
    /// the token survived.
    static func unknown(_ code: String) -> CMCCResultCode {
        CMCCResultCode(code, "undocumented result code", .carrierError, action: .contactProvider,
                       "CMCC documents no such code, so whether the token was spent is unknown: ask CMCC support, quoting the code and the taskId.")
    }

    /// A code CMCC documents for another API of its platform (SMS login, accounts, SIP, SDK
    /// updates): it should never answer a one-click login call. Whether the token was spent is
    /// unknown, so it is not retryable.
    static func otherAPI(_ code: String, _ meaning: String, _ api: String) -> CMCCResultCode {
        CMCCResultCode(code, meaning, .carrierRejected, action: .contactProvider,
                       "CMCC documents this code for \(api), not for one-click login: check that baseURLs point at the one-click login service, then ask CMCC support, quoting the code and the taskId.")
    }
}

/// China Mobile's identifiers and result-code tables.
public enum CMCC {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "cmcc"

    /// Looks `code` up in `table`; undocumented codes become `carrier_error` with the raw code.
    static func lookup(_ code: String, in table: [String: CMCCResultCode]) -> CMCCResultCode {
        table[code] ?? .unknown(code)
    }

    static func table(_ entries: [CMCCResultCode]) -> [String: CMCCResultCode] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.code, $0) })
    }
}
