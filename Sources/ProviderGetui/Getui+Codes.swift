import PassgateCore

/// Getui's identifiers and result codes (个验, `gy_get_pn` v2). Getui publishes only part of its
/// table: any other code keeps its raw value and is not retryable (docs/getui.md, "Uncertain").
public enum Getui {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "getui"

    /// `data.result` values (or `errno` when the envelope itself failed and carries no result).
    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "Getui",
        unknownHint: "Getui documents no such code publicly: ask Getui support, quoting the code and the time of the call.",
        [
            code("20000", "success", nil),
            code("40004", "the app is not found", .appNotEnabled,
                 "apps[].appId is not an app of this Getui account, or 个验 is not enabled for it in the console."),
            code("40031", "the caller's IP is restricted", .ipNotWhitelisted,
                 "Add this server's egress IP to the app's whitelist in the Getui console."),
            code("40032", "parameters or timestamp invalid", .carrierRejected, action: .fixConfig,
                 "Check this server's clock (NTP) and that the backend forwards the SDK's gyuid unchanged; `passgate sign` shows the request."),
            code("60002", "requests too fast", .rateLimited, retryable: true, "Getui refused before looking at the token: retry after a pause."),
            code("60008", "sign error", .signatureRejected,
                 "apps[].appSecret or masterSecret is not this app's: compare with `passgate sign --app-id APP --token TOKEN --field gyuid=ID`."),
        ])

    private static func code(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false, action: PassgateError.Action? = nil, _ hint: String = ""
    ) -> ProviderResultCode {
        ProviderResultCode(provider: providerID, providerName: "Getui", code, meaning, error, retryable: retryable, action: action, hint)
    }
}
