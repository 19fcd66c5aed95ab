import PassgateCore
extension CMCC {
    /// Every code of CMCC's published `loginTokenValidate` table (4.2), plus the codes integrators
    /// report that the table lacks. Many rows belong to other APIs of the carrier's platform and
    /// should never answer a one-click login call; they still get an explicit classification, so
    /// that no documented code is mistaken for a transient failure.
    public static let loginCodes: ProviderResultCodeTable = table([
        ProviderResultCode("103000", "success", nil),

        // The request was refused for how it was signed: the token was not looked at, but the same
        // request signs the same way, so it is not retryable until the configuration is fixed.
        ProviderResultCode("103101", "signature error", .signatureRejected,
                       "Check the app's secret: MD5 mode signs with the APPSecret (apps created before 2018-12-26 may still use the legacy appKey); RSA mode needs the console to hold this private key's public half. `passgate sign --app-id APP --token TOKEN` shows the exact signed string."),
        ProviderResultCode("103102", "invalid package signature", .signatureRejected, source: .reported,
                       "Check the app's signing configuration in the CMCC console."),
        ProviderResultCode("103400", "authorization empty", .signatureRejected,
                       "The carrier found no authorization in the request: check baseURLs point at the one-click login service and the app's signMode."),
        ProviderResultCode("103401", "signature message empty", .signatureRejected,
                       "The carrier found no signature in the request: check baseURLs point at the one-click login service and the app's signMode."),
        ProviderResultCode("103404", "encryption failed", .carrierRejected, action: .fixConfig,
                       "Check the encryption public key registered for this app in the CMCC console."),
        ProviderResultCode("105011", "the private key for parameter encryption is expired or invalid", .carrierRejected, action: .fixConfig,
                       "Check the keys registered for this app in the CMCC console."),

        // The token is dead: expired, used, malformed, or its carrier-side state is gone.
        ProviderResultCode("103113", "token content wrong", .tokenInvalid, "Pass the SDK token unchanged (no trimming, URL-decoding or quoting)."),
        ProviderResultCode("103114", "token check: KS expired", .tokenInvalid, "The token's key material expired at the carrier: get a new token."),
        ProviderResultCode("103115", "token check: KS does not exist", .tokenInvalid, "The token's key material is unknown to the carrier: get a new token."),
        ProviderResultCode("103116", "token check: sqn wrong", .tokenInvalid, "The token's sequence number is wrong: get a new token."),
        ProviderResultCode("103117", "MAC error", .tokenInvalid, "The token failed its integrity check (altered or truncated): pass it unchanged."),
        ProviderResultCode("103120", "clientauth does not exist", .tokenInvalid, "The token's carrier-side state is gone: get a new token."),
        ProviderResultCode("103121", "passid does not exist", .tokenInvalid, "The token's carrier-side state is gone: get a new token."),
        ProviderResultCode("103122", "btid does not exist", .tokenInvalid, "The token's carrier-side state is gone: get a new token."),
        ProviderResultCode("103123", "redisinfo does not exist", .tokenInvalid, "The token's carrier-side state is gone: get a new token."),
        ProviderResultCode("103124", "ksnaf check mismatch", .tokenInvalid, "The token failed the carrier's key check: get a new token."),
        ProviderResultCode("103226", "sqn too small or too large", .tokenInvalid, "The token's sequence number is out of range (an old or replayed token): get a new token."),
        ProviderResultCode("103270", "random check credential expired", .tokenInvalid, "Get a new token."),
        ProviderResultCode("103271", "random check credential wrong", .tokenInvalid, "Get a new token."),
        ProviderResultCode("103272", "random check credential does not exist", .tokenInvalid, "Get a new token."),
        ProviderResultCode("103811", "token empty", .tokenInvalid, "The app sent an empty token."),
        ProviderResultCode("103899", "AOI token: other error", .tokenInvalid, "The carrier rejected the token without saying why: get a new token."),
        ProviderResultCode("103902", "credential check failed", .tokenInvalid, "Get a new token."),
        ProviderResultCode("104201", "token expired, already used, or unknown", .tokenInvalid,
                       "Tokens live 2 minutes and work once: do not retry a spent token, get a new one."),
        ProviderResultCode("105010", "phonescript expired or invalid", .tokenInvalid, "Get a new token."),
        // A new token from the same SDK fails the same way: the app has to ship a newer SDK.
        ProviderResultCode("103810", "token version mismatch: a token from an SDK older than 5.3.0", .tokenInvalid, action: .fallbackSMS,
                       "The app embeds a CMCC SDK older than 5.3.0, whose tokens this API refuses: upgrade the SDK in the app; until then log these users in another way."),
        ProviderResultCode("103127", "certificate check: version expired", .carrierRejected, action: .fallbackSMS,
                       "The app's SDK version is too old for the carrier: upgrade the SDK in the app; until then log these users in another way."),
        ProviderResultCode("103133", "sourceid invalid: token minted for another appid", .tokenAppMismatch),
        ProviderResultCode("105018", "token lacks permission (number-verification token used for login)", .tokenWrongProduct),

        // This app, this account, this host: configuration at the carrier or in Passgate.
        ProviderResultCode("103118", "sourceid does not exist", .appNotEnabled, "Check the appId and that it belongs to this CMCC account."),
        ProviderResultCode("103119", "appid does not exist", .appNotEnabled, "Check the appId for typos and stray spaces, and that it belongs to this CMCC account."),
        ProviderResultCode("103904", "configuration does not exist", .appNotEnabled, "The carrier has no configuration for this app: check the app in the CMCC console."),
        ProviderResultCode("105019", "app not authorized for this capability", .appNotEnabled, "Enable one-click login for this app in the CMCC console."),
        ProviderResultCode("103420", "app lacks the capability", .appNotEnabled, source: .reported,
                       "Enable the capability (one-click login or number verification) for this app in the CMCC console."),
        ProviderResultCode("103511", "source IP not whitelisted", .ipNotWhitelisted,
                       "Add this host's public egress IP (NAT, IPv6 too) to the app's whitelist in the CMCC console."),
        ProviderResultCode("103906", "platform migrated: the old address was called", .carrierRejected, action: .fixConfig,
                       "The carrier moved this service: set providers.cmcc.baseURLs to the current addresses (https://www.cmpassport.com, https://onekey2.cmpassport.com)."),
        ProviderResultCode("105313", "illegal request", .carrierRejected, action: .fixConfig, source: .reported,
                       "Check providers.cmcc.baseURLs (the path is /unisdk/rsapi/loginTokenValidate)."),
        ProviderResultCode("103112", "bad request", .carrierRejected, action: .fixConfig, "Check baseURLs point at the one-click login service."),
        ProviderResultCode("103402", "invalid authWay", .carrierRejected, action: .fixConfig, "Check baseURLs point at the one-click login service."),
        ProviderResultCode("103409", "query empty", .carrierRejected, action: .fixConfig, "Check baseURLs point at the one-click login service."),
        ProviderResultCode("103412", "invalid request", .carrierRejected, action: .fixConfig, "Check the endpoint URL and request format."),
        ProviderResultCode("103414", "parameter validation failed", .carrierRejected, action: .fixConfig,
                       "Check the request fields (appId, version, systemtime): `passgate sign --app-id APP --token TOKEN` prints them."),
        ProviderResultCode("105312", "package used up", .quotaExhausted, source: .reported),

        // The carrier saw this request before: the first copy may have spent the token, and its
        // answer is lost. Every call gets a fresh msgid, so a duplicate means this very request
        // reached CMCC twice (libcurl re-sends once when a reused connection dies before the reply).
        ProviderResultCode("103107", "duplicate msgid", .carrierRejected, action: .newToken,
                       "The carrier received this request twice (a connection dropped and it was re-sent); the first copy may have spent the token: get a new token."),
        ProviderResultCode("103505", "replay attack", .carrierRejected, action: .newToken, "The carrier saw this request before; get a new token."),

        // Throttling refuses the request before the token is looked at: the carrier says to come back later.
        ProviderResultCode("103911", "requests too frequent", .rateLimited, retryable: true, "Slow down; the carrier throttles this app."),

        // The number could not be had for this user: another way to log in works, a retry does not.
        ProviderResultCode("103111", "WAP gateway IP error", .carrierRejected, action: .fallbackSMS,
                       "The device did not reach the carrier's gateway over mobile data (Wi-Fi, VPN or a proxy on the phone): log this user in another way."),
        ProviderResultCode("103134", "WAP mode: phone number empty", .carrierError, action: .fallbackSMS,
                       "The carrier could not find the device's number: log this user in another way."),
        ProviderResultCode("103905", "getting the phone number failed", .carrierError, action: .fallbackSMS,
                       "The carrier could not find the device's number: log this user in another way."),
        ProviderResultCode("105001", "Unicom gateway number lookup failed", .carrierError, action: .fallbackSMS, "Log this user in another way."),
        ProviderResultCode("105002", "Mobile gateway number lookup failed", .carrierError, action: .fallbackSMS, "Log this user in another way."),
        ProviderResultCode("105003", "Telecom gateway number lookup failed", .carrierError, action: .fallbackSMS, "Log this user in another way."),
        ProviderResultCode("105012", "Telecom number lookup not supported", .carrierRejected, action: .fallbackSMS,
                       "The user's SIM is China Telecom and this app cannot look those numbers up through CMCC: enable cross-network lookup in the console, or log these users in another way."),
        ProviderResultCode("105013", "Unicom number lookup not supported", .carrierRejected, action: .fallbackSMS,
                       "The user's SIM is China Unicom and this app cannot look those numbers up through CMCC: enable cross-network lookup in the console, or log these users in another way."),

        // Failures inside the carrier. The token may have been spent before they happened.
        ProviderResultCode("103205", "server error", .carrierError, action: .newToken, "A failure inside the carrier: a new token may succeed."),
        ProviderResultCode("103214", "cache or database access error", .carrierError, action: .newToken, "A failure inside the carrier: a new token may succeed."),
        ProviderResultCode("103413", "system error", .carrierError, action: .newToken, "A failure inside the carrier: a new token may succeed."),
        ProviderResultCode("103128", "GBA web service error", .carrierError, action: .newToken, "A failure inside the carrier: a new token may succeed."),
        ProviderResultCode("103903", "web service call error", .carrierError, action: .newToken, "A failure inside the carrier: a new token may succeed."),
        ProviderResultCode("105009", "parse failed", .carrierError, action: .contactProvider, "The carrier could not parse something; ask CMCC support, quoting the taskId."),
        ProviderResultCode("103211", "other error", .carrierError, action: .contactProvider,
                       "Often a non-string JSON value in the request; report persistent cases to CMCC support with the taskId."),
    ] + otherAPICodes)

    /// Rows of the login table that belong to the platform's other APIs.
    static let otherAPICodes: [ProviderResultCode] = [
        ("103103", "user does not exist", "account login"), ("103104", "user does not support this login method", "account login"),
        ("103105", "wrong password", "password login"), ("103106", "wrong user name", "password login"),
        ("103108", "wrong SMS code", "SMS login"), ("103109", "SMS code expired", "SMS login"),
        ("103125", "phone number format wrong", "APIs that take a phone number"),
        ("103129", "bad msgtype when requesting an SMS code", "SMS login"),
        ("103130", "new password equals the current one", "password changes"), ("103131", "password too simple", "password changes"),
        ("103132", "user registration failed", "user registration"), ("103135", "nickname invalid", "account management"),
        ("103136", "e-mail invalid", "account management"), ("103138", "appid already exists", "app registration"),
        ("103139", "sourceid already exists", "app registration"), ("103200", "KS update not needed", "key updates"),
        ("103202", "cached user missing, or too many failed SMS checks", "SMS login"), ("103203", "cached user does not exist", "SMS login"),
        ("103204", "cached random number does not exist", "SMS login"), ("103207", "sending the SMS failed", "SMS login"),
        ("103210", "password change failed", "password changes"), ("103212", "password check failed", "password login"),
        ("103213", "old password wrong", "password changes"), ("103265", "user already exists", "user registration"),
        ("103303", "SIP user has no account (get app password)", "SIP accounts"), ("103304", "SIP user has no account (deregister)", "SIP accounts"),
        ("103305", "SIP account user name wrong", "SIP accounts"), ("103306", "SIP user name empty (get app password)", "SIP accounts"),
        ("103307", "SIP user name empty (deregister)", "SIP accounts"), ("103308", "SIP phone number invalid", "SIP accounts"),
        ("103309", "SIP opertype empty", "SIP accounts"), ("103310", "SIP sourceid does not exist", "SIP accounts"),
        ("103311", "SIP sourceid invalid", "SIP accounts"), ("103312", "SIP btid does not exist", "SIP accounts"),
        ("103313", "SIP KS does not exist", "SIP accounts"), ("103314", "SIP password change failed", "SIP accounts"),
        ("103315", "SIP password push failed", "SIP accounts"), ("103399", "SIP system error", "SIP accounts"),
        ("103405", "data SMS: phone number empty", "data SMS"), ("103406", "data SMS: content empty", "data SMS"),
        ("103407", "this sourceId, appPackage, sign already registered", "app registration"),
        ("103408", "this sourceId reached its registration limit (99)", "app registration"),
        ("103901", "SMS code sending limit reached", "SMS login"), ("103920", "no version update exists", "SDK updates"),
        ("103921", "download timestamp expired", "SDK updates"), ("103922", "auto-upgrade file not found", "SDK updates"),
        ("104001", "APPID and APPKEY already exist", "app registration"), ("104202", "too many failed SMS checks", "SMS login"),
        ("105004", "uplink SMS: IP check failed", "uplink SMS"), ("105005", "uplink SMS: message empty", "uplink SMS"),
        ("105006", "phone number empty", "APIs that take a phone number"), ("105007", "phone number format wrong", "APIs that take a phone number"),
        ("105008", "SMS content empty", "SMS APIs"), ("105014", "own-number check failed", "number verification (tokenValidate)"),
        ("105015", "three-factor check failed", "three-factor verification"),
    ].map { ProviderResultCode.otherAPI($0.0, $0.1, $0.2) }
}
