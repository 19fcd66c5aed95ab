import PassgateCore

/// Alibaba Cloud's identifiers and result codes (Dypnsapi business codes, and the RPC gateway's).
public enum Aliyun {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "aliyun"

    /// Business codes (HTTP 200, `Code` other than `OK`) and the RPC gateway's (HTTP 4xx, before
    /// the token is looked at). `Missing<Param>` codes are matched by prefix (`code(_:)`).
    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "Alibaba Cloud",
        unknownHint: "Alibaba Cloud documents no such code for this API: ask Alibaba Cloud support, quoting the code and the RequestId.",
        [
            code("OK", "success", nil),
            code("isv.TOKEN_INVALID", "token expired, used, altered or truncated", .tokenInvalid,
                 "Pass the SDK token unchanged (iOS consoles and some Flutter plugins cut long tokens) and exchange it once."),
            code("isv.TOKEN_UNAUTHORIZED_USED", "a number-verification token sent to GetMobile, or the other way", .tokenWrongProduct),
            code("isv.PARAMETERS_MISMATCH", "parameters do not match the token", .carrierRejected, action: .newToken,
                 "The token does not belong with these parameters: get a new token for this request."),
            code("isv.OUT_OF_SERVICE", "account in arrears", .quotaExhausted, "Top up the Alibaba Cloud account."),
            code("isv.MOBILE_NUMBER_ILLEGAL", "phone number invalid", .carrierRejected, action: .contactProvider,
                 "Alibaba Cloud refused the phone number: send an 11-digit mainland number."),
            code("isv.INVALID_PARAMETERS", "parameters invalid", .carrierRejected, action: .contactProvider,
                 "`passgate sign --app-id APP --token TOKEN` shows the exact request; ask Alibaba Cloud support, quoting the code and the RequestId."),
            code("isv.PRODUCT_UNSUBSCRIBE", "the service is not subscribed", .appNotEnabled,
                 "Subscribe to Phone Number Verification Service in the Alibaba Cloud console."),
            code("isv.PRODUCT_UN_SUBSCRIPT", "the service is not subscribed", .appNotEnabled,
                 "Subscribe to Phone Number Verification Service in the Alibaba Cloud console."),
            code("isv.VERIFY_SCHEME_NOT_EXIST", "no verification scheme for the app", .appNotEnabled,
                 "Create the app's authentication scheme in the console (package name and signature, or bundle id)."),
            code("isv.RAM_PERMISSION_DENY", "the AccessKey's RAM user lacks permission", .appNotEnabled,
                 "Grant the RAM user of this AccessKey the Dypnsapi permissions (AliyunDypnsFullAccess)."),
            code("isv.INVALID_APP", "the app is invalid", .appNotEnabled, "Check the app's scheme in the Alibaba Cloud console."),
            code("SignatureDoesNotMatch", "the signature does not match", .signatureRejected,
                 "The AccessKey secret (apps[].secret) is not the AccessKey ID's: compare with `passgate sign --app-id APP --token TOKEN`."),
            code("InvalidAccessKeyId.NotFound", "the AccessKey ID does not exist", .signatureRejected,
                 "apps[].accessKeyId is unknown to Alibaba Cloud (deleted, disabled or mistyped)."),
            code("InvalidTimeStamp.Format", "the timestamp is malformed", .carrierRejected, action: .contactProvider,
                 "Passgate sends UTC yyyy-MM-ddTHH:mm:ssZ: a proxy may have altered the request."),
            code("InvalidTimeStamp.Expired", "the timestamp is more than 15 minutes off", .signatureRejected,
                 "This server's clock is more than 15 minutes off UTC: fix NTP."),
            code("SignatureNonceUsed", "the signature nonce was used before", .rateLimited, retryable: true,
                 "Refused before the token was looked at; a retry signs with a fresh nonce."),
            code("Throttling.User", "the account's flow control", .rateLimited, retryable: true,
                 "Alibaba Cloud refused before looking at the token: retry after a pause, or raise the QPS quota."),
            code("Throttling.Api", "the API's flow control", .rateLimited, retryable: true,
                 "Alibaba Cloud refused before looking at the token: retry after a pause."),
            code("Throttling", "flow control", .rateLimited, retryable: true, "Refused before the token was looked at: retry after a pause."),
            code("InvalidApi.NotFound", "no such API", .carrierRejected, action: .fixConfig,
                 "providers.aliyun.baseURLs should be https://dypnsapi.aliyuncs.com."),
        ])

    /// The entry of `raw`: `Missing<Param>` (a parameter the gateway expected) by prefix.
    public static func code(_ raw: String) -> ProviderResultCode {
        if codes.entries[raw] == nil, raw.hasPrefix("Missing") {
            return code(raw, "a required parameter is missing", .carrierRejected, action: .contactProvider,
                        "Alibaba Cloud says a parameter is missing: `passgate sign --app-id APP --token TOKEN` shows the exact request.")
        }
        return codes[raw]
    }

    private static func code(
        _ code: String, _ meaning: String, _ error: PassgateError.Code?, retryable: Bool = false, action: PassgateError.Action? = nil, _ hint: String = ""
    ) -> ProviderResultCode {
        ProviderResultCode(provider: providerID, providerName: "Alibaba Cloud", code, meaning, error, retryable: retryable, action: action, hint)
    }
}
