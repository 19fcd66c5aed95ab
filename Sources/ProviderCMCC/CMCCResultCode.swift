import PassgateCore

extension ProviderResultCode {
    /// A CMCC code (`Source.reported`: 103102, 103420, 105312, 105313, which only integrators report).
    init(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false,
        action: PassgateError.Action? = nil, source: Source = .published, _ hint: String = ""
    ) {
        self.init(
            provider: CMCC.providerID, providerName: "CMCC", code, meaning, error, retryable: retryable, action: action, source: source, hint)
    }

    /// A code CMCC documents for another API of its platform (SMS login, accounts, SIP, SDK
    /// updates): it should never answer a one-click login call. Whether the token was spent is
    /// unknown, so it is not retryable.
    static func otherAPI(_ code: String, _ meaning: String, _ api: String) -> ProviderResultCode {
        ProviderResultCode(code, meaning, .carrierRejected, action: .contactProvider,
                           "CMCC documents this code for \(api), not for one-click login: check that baseURLs point at the one-click login service, then ask CMCC support, quoting the code and the taskId.")
    }
}

/// China Mobile's identifiers and result-code tables.
public enum CMCC {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "cmcc"

    static func table(_ entries: [ProviderResultCode]) -> ProviderResultCodeTable {
        ProviderResultCodeTable(
            provider: providerID, providerName: "CMCC",
            unknownHint: "CMCC documents no such code, so whether the token was spent is unknown: ask CMCC support, quoting the code and the taskId.",
            entries)
    }
}
