import PassgateCore
import Testing

@Suite("Error model")
struct PassgateErrorTests {
    /// The error table of the contract (docs/errors.md, openapi.yaml), written out independently of
    /// the code: code, retryable by default, action by default. The HTTP statuses are the server's
    /// (PassgateServerTests, ErrorStatusTests).
    static let contract: [(String, Bool, String)] = [
        ("invalid_request", false, "fix_request"), ("not_found", false, "fix_request"), ("method_not_allowed", false, "fix_request"),
        ("unauthenticated", false, "fix_config"), ("app_forbidden", false, "fix_config"), ("app_unknown", false, "fix_config"),
        ("payload_too_large", false, "fix_request"), ("unsupported_media_type", false, "fix_request"), ("token_invalid", false, "new_token"),
        ("token_wrong_product", false, "new_token"), ("token_app_mismatch", false, "fix_config"), ("rate_limited", true, "retry"),
        ("signature_rejected", false, "fix_config"), ("app_not_enabled", false, "fix_config"), ("ip_not_whitelisted", false, "fix_config"),
        ("quota_exhausted", false, "contact_provider"), ("msisdn_decrypt_failed", false, "fix_config"), ("carrier_rejected", false, "contact_provider"),
        ("carrier_error", false, "contact_provider"), ("carrier_bad_response", false, "new_token"), ("carrier_unavailable", true, "retry"),
        ("carrier_timeout", false, "new_token"), ("service_draining", true, "retry"), ("call_in_progress", true, "retry"), ("config_invalid", false, "fix_config"),
        ("internal_error", false, "fallback_sms"),
    ]

    @Test("every contract code exists with its retryable flag and action", arguments: contract)
    func contractCodes(code: String, retryable: Bool, action: String) throws {
        let parsed = try #require(PassgateError.Code(rawValue: code))
        #expect(parsed.retryable == retryable)
        #expect(parsed.defaultAction.rawValue == action)
        #expect(!parsed.defaultMessage.isEmpty)
        let error = PassgateError(parsed, .local("test"))
        #expect(error.retryable == retryable && error.action.rawValue == action)
    }

    @Test("a retryable error always says retry, and retry is only ever said of a retryable error")
    func retryMeansRetryable() {
        for code in PassgateError.Code.allCases {
            #expect((code.defaultAction == .retry) == code.retryable, "\(code)")
        }
    }

    @Test("the code enum has no codes beyond the contract")
    func noExtraCodes() {
        #expect(Set(PassgateError.Code.allCases.map(\.rawValue)) == Set(Self.contract.map(\.0)))
    }

    @Test(
        "transport failures map by whether the request may have been delivered",
        arguments: [
            (TransportFailure.Kind.dnsFailure, "carrier_unavailable"), (.connectionRefused, "carrier_unavailable"),
            (.connectTimeout, "carrier_unavailable"), (.tlsFailure, "carrier_unavailable"), (.proxyFailure, "carrier_unavailable"),
            (.notStarted, "carrier_unavailable"), (.sendFailure, "carrier_timeout"), (.noAnswer, "carrier_timeout"),
            (.timeoutAfterSend, "carrier_timeout"), (.truncatedReply, "carrier_bad_response"), (.responseTooLarge, "carrier_bad_response"),
        ]
    )
    func transportMapping(kind: TransportFailure.Kind, expected: String) {
        let error = PassgateError(transport: TransportFailure(kind: kind, detail: "curl said so", host: "carrier.test"))
        #expect(error.code.rawValue == expected)
        #expect(error.retryable == !kind.mayHaveBeenDelivered)
        #expect(error.message.contains("carrier.test"))
        guard case .transport(let failure) = error.reason else {
            Issue.record("reason is not .transport")
            return
        }
        #expect(failure.detail == "curl said so")
    }

    @Test("invalid request errors name the field")
    func namesField() {
        let error = PassgateError.invalidRequest(field: "phoneNumber", "must be 11 digits")
        #expect(error.code == .invalidRequest && error.action == .fixRequest)
        #expect(error.message.contains("phoneNumber"))
    }

    @Test("underlying errors are kept for logs but not in the caller-facing message")
    func keepsUnderlying() {
        struct Boom: Error, CustomStringConvertible { var description: String { "secret-internal-detail" } }
        let error = PassgateError.internalError("bug", underlying: Boom())
        #expect(!error.message.contains("secret-internal-detail"))
        #expect(String(describing: error).contains("secret-internal-detail"))
    }
}
