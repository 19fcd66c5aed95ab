import PassgateCore

/// JVerification's identifiers and result codes.
public enum JVerification {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "jverification"

    /// Every code JVerification documents for its two server APIs, plus the ones client code
    /// handles that the documentation lacks (`Source.implementation`). Codes 1801-1803 and 2000 are
    /// published without a meaning that says whether the token was spent: undocumented in effect,
    /// they are left to the table's fallback (`carrier_error`, raw code kept).
    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "JVerification",
        unknownHint: "JVerification documents no meaning for this code, so whether the token was spent is unknown: ask JiGuang support, quoting the code and the id.",
        [
            code("8000", "got the phone number", nil),
            code("8001", "getting the phone number failed", .carrierError, action: .fallbackSMS,
                 "The carrier could not look the number up for this token (a SIM of another carrier, Wi-Fi only): log the user in another way."),
            code("9000", "the number is the device's own", nil),
            code("9001", "the number is not the device's own", nil),
            code("9002", "the carrier could not tell", nil),
            code("9003", "token expired or not found (already used)", .tokenInvalid,
                 "Tokens are single use and short-lived (China Mobile 2 min, Unicom 30, Telecom 10): get a new one."),
            code("9004", "token format error", .tokenInvalid, "Pass the SDK token unchanged (no trimming, URL-decoding or quoting)."),
            code("9005", "requests too frequent", .rateLimited, retryable: true,
                 "JVerification refused before looking at the token: retry after a pause."),
            code("9006", "daily limit for this number reached", .carrierRejected, action: .fallbackSMS,
                 "This phone number reached JVerification's daily limit: log the user in another way today."),
            code("9007", "daily limit for this appKey reached", .quotaExhausted,
                 "The app's daily limit at JVerification is used up: raise it in the JiGuang console."),
            code("9010", "authentication missing", .signatureRejected,
                 "JVerification found no Basic authorization: check baseURLs point at api.verification.jpush.cn."),
            code("9011", "authentication failed", .signatureRejected,
                 "Check the app's appKey and secret (the Master Secret, not the app's other keys) in the JiGuang console."),
            code("9012", "parameter invalid", .carrierRejected, action: .contactProvider,
                 "JVerification rejected a field of the request: `passgate sign --app-id APP --token TOKEN` shows the exact body; ask JiGuang support, quoting the code and the id."),
            code("9013", "the method must be POST", .carrierRejected, action: .contactProvider,
                 "A proxy in front of JVerification changed the request: check baseURLs and any egress proxy."),
            code("9014", "appKey blocked", .appNotEnabled, source: .implementation,
                 "JiGuang blocked this appKey: check the app's state in the JiGuang console."),
            code("9015", "content type not supported", .carrierRejected, action: .contactProvider,
                 "A proxy in front of JVerification changed the request: check baseURLs and any egress proxy."),
            code("9018", "account balance insufficient", .quotaExhausted, "Top up the JiGuang account."),
            code("9020", "the token could not be decrypted", .appNotEnabled, source: .implementation,
                 "Usually no RSA key pair is uploaded for the app, or the app's package name or signature differs from the console's."),
            code("9021", "token invalid", .tokenInvalid, source: .implementation, "Get a new token from the SDK."),
            code("9022", "encrypting the phone number failed", .appNotEnabled, source: .implementation,
                 "JVerification could not encrypt to the RSA public key uploaded for the app: upload the public half of apps[].privateKey again."),
            code("9031", "not a validated user", .appNotEnabled, "The account is not verified for the authentication service: check the JiGuang console."),
            code("9099", "server error", .carrierError,
                 "JVerification failed internally; whether the token was spent is unknown: if it persists, ask JiGuang support, quoting the code and the id."),
            code("1804", "QPS limit reached", .rateLimited, retryable: true, "JVerification refused before looking at the token: retry after a pause."),
            code("1805", "account balance insufficient", .quotaExhausted, "Top up the JiGuang account."),
        ])

    private static func code(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false, action: PassgateError.Action? = nil,
        source: ProviderResultCode.Source = .published, _ hint: String = ""
    ) -> ProviderResultCode {
        ProviderResultCode(
            provider: providerID, providerName: "JVerification", code, meaning, error, retryable: retryable, action: action, source: source, hint)
    }
}
