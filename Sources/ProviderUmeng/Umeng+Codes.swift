import PassgateCore

/// Umeng+ U-Verify's identifiers and result codes: its business `code` (200 with `success: true`;
/// no public table for the others), and the Alibaba Cloud API gateway's refusals, which carry no
/// code but an `X-Ca-Error-Message` header: their code here is that message up to its first comma.
public enum Umeng {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "umeng"

    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "Umeng",
        unknownHint: "Umeng publishes no code table for this API: ask Umeng support, quoting the code and the X-Ca-Nonce (the call's msgid in Passgate's log).",
        [
            code("200", "success", nil),
            code("Invalid Signature", "the API gateway computed another signature", .signatureRejected,
                 "apps[].gatewayAppSecret is not the Marketplace AppSecret of gatewayAppKey: compare with `passgate sign --app-id APP --token TOKEN`."),
            code("Invalid AppKey", "the API gateway does not know gatewayAppKey", .signatureRejected,
                 "apps[].gatewayAppKey is not an AppKey of the Alibaba Cloud Marketplace purchase."),
            code("Invalid Timestamp", "the timestamp is malformed or more than 15 minutes off", .signatureRejected,
                 "This server's clock is off: fix NTP (X-Ca-Timestamp is in milliseconds)."),
            code("Nonce Used", "the nonce was used before", .signatureRejected, "A proxy resent the request, or the clock went back: check the egress path."),
            code("Unauthorized", "the Marketplace app may not call this API", .appNotEnabled,
                 "Authorize the Marketplace app for U-Verify's API in the Alibaba Cloud console."),
            code("Quota Exhausted", "the Marketplace package is used up", .quotaExhausted, "Buy more calls for the U-Verify package."),
            code("Throttled by APP Flow Control", "the app's flow control at the gateway", .rateLimited, retryable: true,
                 "Refused by the gateway before the token reached Umeng: retry after a pause."),
            code("Throttled by API Flow Control", "the API's flow control at the gateway", .rateLimited, retryable: true,
                 "Refused by the gateway before the token reached Umeng: retry after a pause."),
        ])

    /// The gateway's refusals not in the table: the gateway looked at the request, not the token,
    /// and the same configuration would be refused again.
    public static func gatewayCode(_ code: String) -> ProviderResultCode {
        codes.entries[code]
            ?? Umeng.code(code, "refused by the Alibaba Cloud API gateway", .carrierRejected, action: .fixConfig,
                          "The API gateway refused the request before Umeng saw it: check gatewayAppKey, gatewayAppSecret and the base URL.")
    }

    private static func code(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false, action: PassgateError.Action? = nil, _ hint: String = ""
    ) -> ProviderResultCode {
        ProviderResultCode(provider: providerID, providerName: "Umeng", code, meaning, error, retryable: retryable, action: action, source: .implementation, hint)
    }
}
