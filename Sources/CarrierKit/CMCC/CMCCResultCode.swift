/// One documented CMCC result code and what Passgate makes of it.
public struct CMCCResultCode: Sendable, Equatable {
    /// The raw code as the carrier sends it.
    public let code: String
    /// The documented meaning.
    public let meaning: String
    /// The normalized error, or `nil` for a success code.
    public let error: PassgateError.Code?
    /// What an integrator or operator should check; appended to the error message.
    public let hint: String

    init(_ code: String, _ meaning: String, _ error: PassgateError.Code?, _ hint: String = "") {
        self.code = code
        self.meaning = meaning
        self.error = error
        self.hint = hint
    }

    /// The normalized error for this code, carrying the raw answer. `carrierMessage` is the
    /// reply's own `desc`/`resultDesc` when it sent one.
    func makeError(carrierMessage: String?) -> PassgateError {
        let code = error ?? .carrierError
        let base = code.defaultMessage
        let message = hint.isEmpty ? "\(base) (CMCC \(self.code): \(meaning))" : "\(base) (CMCC \(self.code): \(meaning)) \(hint)"
        let answer = CarrierAnswer(provider: CMCC.providerID, code: self.code, message: carrierMessage ?? meaning)
        return PassgateError(code, .carrier(answer), message: message)
    }

    /// An undocumented code: a carrier error with the raw code kept, retryable by the contract.
    static func unknown(_ code: String) -> CMCCResultCode {
        CMCCResultCode(code, "undocumented result code", .carrierError, "Look the raw code up in the CMCC docs or ask CMCC support.")
    }
}

/// China Mobile's identifiers and result-code tables (`cmcc-protocol.md`).
public enum CMCC {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "cmcc"

    /// `loginTokenValidate` codes, including the legacy ones older docs list.
    public static let loginCodes: [String: CMCCResultCode] = table([
        CMCCResultCode("103000", "success", nil),
        CMCCResultCode("103101", "signature error", .signatureRejected,
                       "Check the app's secret: MD5 mode signs with the APPSecret (apps created before 2018-12-26 may still use the legacy appKey); RSA mode needs the console to hold this private key's public half. `passgate sign login-token` shows the exact signed string."),
        CMCCResultCode("103102", "invalid package signature", .signatureRejected, "Check the app's signing configuration in the CMCC console."),
        // Every call gets a fresh msgid, so a duplicate means this very request reached CMCC twice
        // (libcurl re-sends once when a reused connection dies before the reply): the first copy
        // may have spent the token, and its answer is lost.
        CMCCResultCode("103107", "duplicate msgid", .carrierRejected,
                       "The carrier received this request twice (a connection dropped and it was re-sent); the first copy may have spent the token: get a new token."),
        CMCCResultCode("103113", "token malformed", .tokenInvalid, "Pass the SDK token unchanged (no trimming, URL-decoding or quoting)."),
        CMCCResultCode("103119", "appid does not exist", .appNotEnabled, "Check the appId for typos and stray spaces, and that it belongs to this CMCC account."),
        CMCCResultCode("103133", "sourceid invalid: token minted for another appid", .tokenAppMismatch),
        CMCCResultCode("103211", "other error", .carrierError, "Often a non-string JSON value in the request; retry, and report persistent cases."),
        CMCCResultCode("103404", "encryption failed", .carrierRejected, "Check the encryption public key registered in the CMCC console."),
        CMCCResultCode("103412", "invalid request", .carrierRejected, "Check the endpoint URL and request format."),
        CMCCResultCode("103414", "parameter validation failed", .carrierRejected, "Check the request fields (appId, version, systemtime)."),
        CMCCResultCode("103505", "replayed request", .carrierRejected, "The carrier saw this request before; get a new token."),
        CMCCResultCode("103511", "source IP not whitelisted", .ipNotWhitelisted,
                       "Add this host's public egress IP (NAT, IPv6 too) to the app's whitelist in the CMCC console."),
        CMCCResultCode("103811", "token empty", .tokenInvalid, "The app sent an empty token."),
        CMCCResultCode("103911", "requests too frequent", .rateLimited, "Slow down; the carrier throttles this app."),
        CMCCResultCode("104201", "token expired, already used, or unknown", .tokenInvalid,
                       "Tokens live 2 minutes and work once: do not retry a spent token, get a new one."),
        CMCCResultCode("105018", "token lacks permission (number-verification token used for login)", .tokenWrongProduct),
        CMCCResultCode("105019", "app not authorized for this capability", .appNotEnabled,
                       "Enable one-click login for this app in the CMCC console."),
        CMCCResultCode("105312", "package used up", .quotaExhausted),
        CMCCResultCode("105313", "illegal request", .carrierRejected, "Check the endpoint URL (/unisdk/rsapi/loginTokenValidate)."),
    ])

    /// `tokenValidate` (number verification) codes.
    public static let verifyCodes: [String: CMCCResultCode] = table([
        CMCCResultCode("000", "is the phone's own number", nil),
        CMCCResultCode("001", "is not the phone's own number", nil),
        CMCCResultCode("002", "number lookup failed", .carrierError, "Number verification works for China Mobile numbers only."),
        CMCCResultCode("003", "internal token check failed", .carrierError),
        CMCCResultCode("004", "phone number hash error", .carrierRejected,
                       "phoneNum is SHA256(phone + appKey + timestamp): check the app's appKey (not the APPSecret)."),
        CMCCResultCode("102", "invalid parameter", .carrierRejected, "Check the request fields."),
        CMCCResultCode("124", "IP whitelist check failed", .ipNotWhitelisted,
                       "Add this host's public egress IP to the app's whitelist in the CMCC console."),
        CMCCResultCode("302", "sign check failed", .signatureRejected,
                       "Number verification signs with HMAC-SHA256 keyed by the appKey (not the APPSecret). `passgate sign verify-number` shows the signed string."),
        CMCCResultCode("303", "parameter parse error", .carrierRejected, "Check the request format."),
        CMCCResultCode("606", "token check failed (expired or used)", .tokenInvalid,
                       "Tokens live 2 minutes and work once: get a new one."),
        CMCCResultCode("999", "system error", .carrierError),
        CMCCResultCode("103420", "app lacks the number-verification capability", .appNotEnabled,
                       "Enable number verification for this app in the CMCC console."),
        CMCCResultCode("102315", "package used up", .quotaExhausted),
    ])

    /// Looks `code` up in `table`; undocumented codes become `carrier_error` with the raw code.
    static func lookup(_ code: String, in table: [String: CMCCResultCode]) -> CMCCResultCode {
        table[code] ?? .unknown(code)
    }

    private static func table(_ entries: [CMCCResultCode]) -> [String: CMCCResultCode] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.code, $0) })
    }
}
