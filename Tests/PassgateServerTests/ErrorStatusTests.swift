import Hummingbird
import PassgateCore
import Testing

@testable import PassgateServer

/// The HTTP side of the error contract: the status each code answers with, and errors that render
/// themselves as Hummingbird's own do.
@Suite("error statuses")
struct ErrorStatusTests {
    /// docs/errors.md's table, written out independently of the code.
    static let statuses: [(String, Int)] = [
        ("invalid_request", 400), ("not_found", 404), ("method_not_allowed", 405), ("unauthenticated", 401), ("app_forbidden", 403), ("app_unknown", 404), ("payload_too_large", 413), ("unsupported_media_type", 415), ("token_invalid", 422), ("token_wrong_product", 422), ("token_app_mismatch", 422), ("rate_limited", 429), ("signature_rejected", 502), ("app_not_enabled", 502), ("ip_not_whitelisted", 502), ("quota_exhausted", 502), ("msisdn_decrypt_failed", 502), ("carrier_rejected", 502), ("carrier_error", 502), ("carrier_bad_response", 502), ("carrier_unavailable", 503), ("carrier_timeout", 504), ("service_draining", 503), ("call_in_progress", 409), ("config_invalid", 422), ("internal_error", 500),
    ]

    @Test("every code answers with its contract status", arguments: statuses)
    func status(code: String, status: Int) throws {
        let parsed = try #require(PassgateError.Code(rawValue: code))
        #expect(parsed.httpStatus == status)
        #expect(PassgateError(parsed, .local("test")).status.code == status)
    }

    @Test("every code is in the table")
    func complete() {
        #expect(Set(PassgateError.Code.allCases.map(\.rawValue)) == Set(Self.statuses.map(\.0)))
    }
}
