import PassgateCore

/// NetEase Yidun's identifiers and result codes (its one-click login API's `code`).
public enum Yidun {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "yidun"

    /// Yidun's `code` values. Yidun publishes them without saying which ones left the token
    /// unspent, so none is retryable; 405 covers a bad signature and a bad timestamp alike
    /// (which of the two is not told apart in the material available).
    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "NetEase Yidun",
        unknownHint: "NetEase Yidun documents no such code: ask Yidun support, quoting the code.",
        [
            code("200", "success", nil),
            code("400", "parameters invalid", .carrierRejected, action: .contactProvider,
                 "Yidun rejected a field of the request: `passgate sign --app-id APP --token TOKEN` shows the exact request; ask Yidun support, quoting the code."),
            code("401", "business not found, or no permission for it", .appNotEnabled,
                 "Check apps[].businessId and apps[].secretId against the Yidun console, and that the one-click login service is enabled."),
            code("405", "signature or timestamp invalid", .signatureRejected,
                 "Check apps[].secretKey (the secretId's secret key), and this server's clock (NTP)."),
            code("450", "token wrong or already used", .tokenInvalid, source: .implementation,
                 "Yidun tokens and the carrier's accessToken are single use: get both anew from the SDK."),
            code("503", "service error", .carrierError,
                 "Yidun failed internally; whether the token was spent is unknown: if it persists, ask Yidun support."),
        ])

    /// A 200 answer without a number: the carrier refused, its own code in `data.resultCode`.
    public static let noNumber = code(
        "200", "no number: the carrier refused the token (its code is in the message)", .carrierError, action: .fallbackSMS,
        "The carrier could not look the number up for this token (another carrier's SIM, Wi-Fi only): log the user in another way.")

    private static func code(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false, action: PassgateError.Action? = nil,
        source: ProviderResultCode.Source = .published, _ hint: String = ""
    ) -> ProviderResultCode {
        ProviderResultCode(
            provider: providerID, providerName: "NetEase Yidun", code, meaning, error, retryable: retryable, action: action, source: source, hint)
    }
}
