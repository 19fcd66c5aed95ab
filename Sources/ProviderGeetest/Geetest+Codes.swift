import PassgateCore

/// Geetest's identifiers and result codes: OneLogin's `check_phone` (the number) and OnePass's
/// `check_gateway` (number verification). The two tables do not share a code, so one table holds
/// both; the verification's own parameter codes (2000-2005) never come from `check_phone`.
public enum Geetest {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "geetest"

    /// `status` values. 200 is the one success; a verification's answer is then in `result`.
    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "Geetest",
        unknownHint: "Geetest documents no such status for this API: ask Geetest support, quoting the status and the process_id's time.",
        [
            code("200", "success", nil),
            code("500", "the carrier's gateway failed", .carrierError, action: .newToken,
                 "For a China Telecom number, the backend must forward the SDK's authcode as providerFields.authcode; otherwise get a new token."),
            code("12005", "timestamp not in milliseconds, or more than 10 minutes off", .signatureRejected,
                 "Passgate sends milliseconds: this server's clock is more than 10 minutes off, fix NTP."),
            code("12007", "the caller's IP is not whitelisted", .ipNotWhitelisted,
                 "Add this server's egress IP to the app's whitelist in the Geetest console."),
            code("12100", "process_id unknown", .tokenInvalid,
                 "Forward the processId the SDK returned with this token, unchanged."),
            code("12101", "process_id already used", .tokenInvalid,
                 "A process_id is spent by its first call, even a failed one: run the SDK's flow again."),
            code("12104", "the account's balance is exhausted", .quotaExhausted, "Top up the Geetest account."),
            code("12105", "sign error", .signatureRejected,
                 "apps[].appKey is not the app_key of this app_id in the Geetest console: compare with `passgate sign --app-id APP --token TOKEN`."),
            code("12109", "sign error", .signatureRejected,
                 "apps[].appKey is not the app_key of this app_id in the Geetest console: compare with `passgate sign --app-id APP --token TOKEN`."),
            code("12108", "token expired", .tokenInvalid),
            code("12200", "token expired or invalid", .tokenInvalid),
            code("2000", "a required parameter is missing", .carrierRejected, action: .fixConfig, Self.parameterHint),
            code("2001", "a parameter is malformed", .carrierRejected, action: .fixConfig, Self.parameterHint),
            code("2002", "a parameter is malformed", .carrierRejected, action: .fixConfig, Self.parameterHint),
            code("2003", "a parameter is malformed", .carrierRejected, action: .fixConfig, Self.parameterHint),
            code("2004", "a parameter is malformed", .carrierRejected, action: .fixConfig, Self.parameterHint),
            code("2005", "the timestamp is malformed or too far off", .signatureRejected,
                 "Passgate sends milliseconds: this server's clock is off, fix NTP."),
            code("2104", "sign error", .signatureRejected,
                 "apps[].appKey is not the key OnePass signs with for this app_id: compare with `passgate sign --app-id APP --token TOKEN --verify PHONE`."),
            code("3102", "process_id unknown", .tokenInvalid, "Forward the processId the SDK returned with this token, unchanged."),
            code("3105", "process_id already used", .tokenInvalid, "A process_id is spent by its first call: run the SDK's flow again."),
            code("3200", "token expired or invalid", .tokenInvalid),
        ])

    private static let parameterHint =
        "Geetest found a parameter missing or malformed: check providers.geetest.verifyBaseURLs point at OnePass, and `passgate sign` for the exact request."

    private static func code(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false, action: PassgateError.Action? = nil, _ hint: String = ""
    ) -> ProviderResultCode {
        ProviderResultCode(provider: providerID, providerName: "Geetest", code, meaning, error, retryable: retryable, action: action, hint)
    }
}
