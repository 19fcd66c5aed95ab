import CarrierKit
import Testing

@Suite("Error model")
struct PassgateErrorTests {
    /// The design's error table, written out independently of the code.
    static let contract: [(String, Int, Bool)] = [
        ("invalid_request", 400, false), ("not_found", 404, false), ("method_not_allowed", 405, false), ("unauthenticated", 401, false), ("app_forbidden", 403, false),
        ("app_unknown", 404, false), ("payload_too_large", 413, false), ("unsupported_media_type", 415, false),
        ("token_invalid", 422, false), ("token_wrong_product", 422, false), ("token_app_mismatch", 422, false),
        ("rate_limited", 429, true), ("signature_rejected", 502, false), ("app_not_enabled", 502, false),
        ("ip_not_whitelisted", 502, false), ("quota_exhausted", 502, false), ("msisdn_decrypt_failed", 502, false),
        ("carrier_rejected", 502, false), ("carrier_error", 502, true), ("carrier_bad_response", 502, false),
        ("carrier_unavailable", 503, true), ("carrier_timeout", 504, false), ("service_draining", 503, true), ("config_invalid", 422, false),
        ("internal_error", 500, false),
    ]

    @Test("every contract code exists with its HTTP status and retryable flag", arguments: contract)
    func contractCodes(code: String, status: Int, retryable: Bool) throws {
        let parsed = try #require(PassgateError.Code(rawValue: code))
        #expect(parsed.httpStatus == status)
        #expect(parsed.retryable == retryable)
        #expect(!parsed.defaultMessage.isEmpty)
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
        #expect(error.code == .invalidRequest && error.httpStatus == 400)
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
