extension PassgateError {
    /// The stable error codes of the REST contract (docs/errors.md, openapi.yaml). Never rename one.
    public enum Code: String, Sendable, CaseIterable, Codable {
        case invalidRequest = "invalid_request"
        case notFound = "not_found"
        case methodNotAllowed = "method_not_allowed"
        case unauthenticated = "unauthenticated"
        case appForbidden = "app_forbidden"
        case appUnknown = "app_unknown"
        case payloadTooLarge = "payload_too_large"
        case unsupportedMediaType = "unsupported_media_type"
        case tokenInvalid = "token_invalid"
        case tokenWrongProduct = "token_wrong_product"
        case tokenAppMismatch = "token_app_mismatch"
        case rateLimited = "rate_limited"
        case signatureRejected = "signature_rejected"
        case appNotEnabled = "app_not_enabled"
        case ipNotWhitelisted = "ip_not_whitelisted"
        case quotaExhausted = "quota_exhausted"
        case msisdnDecryptFailed = "msisdn_decrypt_failed"
        case carrierRejected = "carrier_rejected"
        case carrierError = "carrier_error"
        case carrierBadResponse = "carrier_bad_response"
        case carrierUnavailable = "carrier_unavailable"
        case carrierTimeout = "carrier_timeout"
        case serviceDraining = "service_draining"
        /// Another request with this token (on this or another instance) is calling the provider
        /// and did not finish while this one waited: retry with the same token to get its outcome.
        case callInProgress = "call_in_progress"
        /// Admin API only: a reload found problems in the new configuration; the old one keeps serving.
        case configInvalid = "config_invalid"
        case internalError = "internal_error"

        /// Whether the same request with the same token may succeed if sent again, when nothing
        /// more specific is known. True only where the token is provably unspent: Passgate refused
        /// before calling (`rate_limited`, `service_draining`), or the request never reached the
        /// carrier (`carrier_unavailable`). A carrier's error code may still have spent the token,
        /// so `carrier_error` is not retryable unless its table entry says so.
        public var retryable: Bool {
            switch self {
            case .rateLimited, .carrierUnavailable, .serviceDraining, .callInProgress: true
            default: false
            }
        }

        /// Whether the carrier call may have spent the token (used by the replay cache: a token-level
        /// failure is final and is remembered like a success).
        public var isTokenLevel: Bool {
            switch self {
            case .tokenInvalid, .tokenWrongProduct, .tokenAppMismatch: true
            default: false
            }
        }

        /// The message used when nothing more specific is known.
        public var defaultMessage: String {
            switch self {
            case .invalidRequest: "The request is malformed."
            case .notFound: "No such endpoint: see openapi.yaml for the API."
            case .methodNotAllowed: "This endpoint does not accept this HTTP method: see openapi.yaml."
            case .unauthenticated: "Missing or unknown API key: send 'Authorization: Bearer <key>'."
            case .appForbidden: "This API key is not granted this appId."
            case .appUnknown: "This appId is not configured in Passgate."
            case .payloadTooLarge: "The request body exceeds the configured limit."
            case .unsupportedMediaType: "Send the body as 'Content-Type: application/json'."
            case .tokenInvalid: "The token is expired, already used, malformed or empty: get a new token from the SDK."
            case .tokenWrongProduct: "This token was issued for another product (number verification vs login): request the right kind from the SDK."
            case .tokenAppMismatch: "This token was issued for a different appId: check the appId the app's SDK uses (iOS and Android apps differ)."
            case .rateLimited: "Too many requests: retry after the time in the Retry-After header."
            case .signatureRejected: "The carrier rejected our signature: check the app's secret (APPSecret vs legacy appKey) or RSA key pair."
            case .appNotEnabled: "The carrier does not know this appId or has not enabled this capability for it: check the carrier console."
            case .ipNotWhitelisted: "The carrier refused our egress IP: add Passgate's public IP to the app's whitelist in the carrier console."
            case .quotaExhausted: "The carrier package for this app is used up: top it up in the carrier console."
            case .msisdnDecryptFailed: "The carrier's encrypted phone number could not be decrypted with the configured private key: check that the console holds this key's public half."
            case .carrierRejected: "The carrier rejected the request."
            case .carrierError: "The carrier reported an internal failure or an undocumented code; it may have spent the token."
            case .carrierBadResponse: "The carrier's answer was not a valid protocol reply."
            case .carrierUnavailable: "The carrier could not be reached; the request was not sent, so retrying with the same token is safe."
            case .carrierTimeout: "The request was sent to the carrier but no complete answer came in time; the token may be spent."
            case .serviceDraining: "This instance is shutting down: retry, the load balancer will route to another one."
            case .callInProgress: "Another request with this token is calling the provider right now: retry with the same token to get its outcome (never a second call)."
            case .configInvalid: "The new configuration has problems and was not applied; the running configuration keeps serving."
            case .internalError: "Internal error: the details are in Passgate's logs under this requestId."
            }
        }
    }
}
