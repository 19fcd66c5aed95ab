import PassgateCore

/// MobTech SecVerify's identifiers and result codes (`status`). MobTech publishes no code table
/// for this API: the meanings come from client code that handles them, so every entry is marked
/// `.implementation` and an undocumented code keeps its raw value and is not retried.
public enum MobTech {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "mobtech"

    /// `status` 200 is the success; the others are MobTech's 7-digit codes (4xxxxxx: the request,
    /// 5xxxxxx: MobTech's side or the account).
    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "MobTech",
        unknownHint: "MobTech documents no such code: ask MobTech support, quoting the code and the seqid.",
        [
            code("200", "success", nil),
            code("4119342", "sign error", .signatureRejected,
                 "apps[].appSecret is not the app's AppSecret: compare with `passgate sign --app-id APP --token TOKEN`."),
            code("4119343", "timestamp error", .signatureRejected, "This server's clock is off: fix NTP (the timestamp is in milliseconds)."),
            code("4119331", "AppSecret error", .signatureRejected, "apps[].appSecret is not the AppSecret of this appkey in the MobTech console."),
            code("4119310", "token not found", .tokenInvalid, "Get a new token from the SDK and exchange it once."),
            code("4119311", "token illegal", .tokenInvalid, "Pass the SDK's token and opToken unchanged, and exchange them once."),
            code("5119104", "decrypt failed", .tokenInvalid, "MobTech could not read the token: pass the SDK's values unchanged, or get new ones."),
            code("5119341", "balance exhausted", .quotaExhausted, "Top up the MobTech account."),
            code("5119511", "per-minute limit reached", .rateLimited, action: .newToken,
                 "MobTech's per-minute limit: slow down; whether the token was spent is not documented, so get a new one."),
            code("5119546", "the app's per-minute limit reached", .rateLimited, action: .newToken,
                 "The app's per-minute limit at MobTech: slow down; whether the token was spent is not documented, so get a new one."),
            code("5119507", "free login failed", .carrierError, action: .newToken, "The carrier refused the login: get a new token, or fall back to SMS."),
            code("5119509", "getting the number failed", .carrierError, action: .newToken, "The carrier gave no number: get a new token, or fall back to SMS."),
            code("5119501", "unknown operator", .carrierRejected, action: .newToken,
                 "providerFields.operator must be the operator the SDK returned with this opToken (CMCC, CUCC or CTCC)."),
            code("4119521", "package name not configured", .appNotEnabled, "Register the app's package name (and signature) in the MobTech console."),
            code("5119601", "no price set for the app", .appNotEnabled, action: .contactProvider, "Ask MobTech to set the app's price (contract)."),
        ])

    private static func code(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, action: PassgateError.Action? = nil, _ hint: String = ""
    ) -> ProviderResultCode {
        ProviderResultCode(
            provider: providerID, providerName: "MobTech", code, meaning, error, retryable: false, action: action, source: .implementation, hint)
    }
}
