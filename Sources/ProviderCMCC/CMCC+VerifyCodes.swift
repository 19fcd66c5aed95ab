import PassgateCore
extension CMCC {
    /// Every code of CMCC's published `tokenValidate` (number verification) table (4.3), plus
    /// 103420, which integrators report.
    public static let verifyCodes: ProviderResultCodeTable = table([
        ProviderResultCode("000", "is the phone's own number", nil),
        ProviderResultCode("001", "is not the phone's own number", nil),
        // The lookup ran, so the token was most likely spent; and numbers the carrier cannot look
        // up (other carriers' SIMs, Wi-Fi) fail again with a new one.
        ProviderResultCode("002", "number lookup failed", .carrierError, action: .fallbackSMS,
                       "Number verification works for China Mobile numbers over mobile data only: verify this user another way."),
        ProviderResultCode("003", "internal token check failed", .carrierError, action: .newToken,
                       "A failure inside the carrier while checking the token; whether it was spent is unknown: get a new token."),
        ProviderResultCode("004", "phone number hash error", .carrierRejected, action: .fixConfig,
                       "phoneNum is SHA256(phone + appKey + timestamp): check the app's appKey (not the APPSecret)."),
        ProviderResultCode("102", "invalid parameter", .carrierRejected, action: .fixConfig,
                       "Check the request fields: `passgate sign --app-id APP --token TOKEN --phone NUMBER` prints them."),
        ProviderResultCode("124", "IP whitelist check failed", .ipNotWhitelisted,
                       "Add this host's public egress IP to the app's whitelist in the CMCC console."),
        ProviderResultCode("302", "sign check failed", .signatureRejected,
                       "Number verification signs with HMAC-SHA256 keyed by the appKey (not the APPSecret). `passgate sign --app-id APP --token TOKEN --phone NUMBER` shows the signed string."),
        ProviderResultCode("303", "parameter parse error", .carrierRejected, action: .fixConfig, "Check baseURLs point at the number-verification service."),
        ProviderResultCode("606", "token check failed (expired or used)", .tokenInvalid, "Tokens live 2 minutes and work once: get a new one."),
        ProviderResultCode("999", "system error", .carrierError, action: .newToken, "A failure inside the carrier: a new token may succeed."),
        ProviderResultCode("102315", "package used up", .quotaExhausted),
        ProviderResultCode("103420", "app lacks the number-verification capability", .appNotEnabled, source: .reported,
                       "Enable number verification for this app in the CMCC console."),
    ])
}
