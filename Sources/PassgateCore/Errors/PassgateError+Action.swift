extension PassgateError {
    /// What the calling backend should do next, in one word a program can switch on. The
    /// `message` says the same for people; this is for code.
    public enum Action: String, Sendable, CaseIterable, Codable {
        /// Send the same request again, with the same token (only where `retryable` is true).
        case retry
        /// The token is spent or unusable: have the app get a new one from the SDK, then try again.
        case newToken = "new_token"
        /// Passgate's or the provider console's configuration is wrong (secret, key, whitelist,
        /// appId, grants): an operator must fix it; until then one-click login cannot succeed.
        case fixConfig = "fix_config"
        /// One-click login cannot work for this user or device now (carrier not supported, number
        /// lookup failed, outdated SDK): log the user in another way, e.g. an SMS code.
        case fallbackSMS = "fallback_sms"
        /// The provider failed or refused in a way only the provider can explain or fix (quota,
        /// account, an internal error, an undocumented code): contact them, quoting the raw code.
        case contactProvider = "contact_provider"
        /// The calling backend's request is wrong (body, field, path, method, media type): fix
        /// the calling code. Not one of the five carrier-facing actions: these errors never reach
        /// a provider.
        case fixRequest = "fix_request"
    }
}

extension PassgateError.Code {
    /// The action for this code when nothing more specific is known (a carrier code's table
    /// entry may say otherwise: `ProviderResultCode`).
    public var defaultAction: PassgateError.Action {
        switch self {
        case .invalidRequest, .notFound, .methodNotAllowed, .payloadTooLarge, .unsupportedMediaType: .fixRequest
        case .unauthenticated, .appForbidden, .appUnknown, .configInvalid, .tokenAppMismatch, .signatureRejected, .appNotEnabled,
            .ipNotWhitelisted, .msisdnDecryptFailed:
            .fixConfig
        case .tokenInvalid, .tokenWrongProduct, .carrierBadResponse, .carrierTimeout: .newToken
        case .rateLimited, .carrierUnavailable, .serviceDraining, .callInProgress: .retry
        case .quotaExhausted, .carrierRejected, .carrierError: .contactProvider
        case .internalError: .fallbackSMS
        }
    }
}
