@testable import ProviderCMCC
import PassgateCore
import Testing

/// Both of CMCC's published result-code tables, complete, classified honestly.
@Suite("CMCC result-code tables")
struct CMCCResultCodeTableTests {
    /// Every code of the published `loginTokenValidate` table (4.2), plus the four integrators
    /// report (103102, 103420, 105312, 105313), written out independently of the code.
    static let publishedLogin: [String] = """
        103000 103101 103102 103103 103104 103105 103106 103107 103108 103109 103111 103112 103113 103114 103115 103116 103117 103118
        103119 103120 103121 103122 103123 103124 103125 103127 103128 103129 103130 103131 103132 103133 103134 103135 103136 103138
        103139 103200 103202 103203 103204 103205 103207 103210 103211 103212 103213 103214 103226 103265 103270 103271 103272 103303
        103304 103305 103306 103307 103308 103309 103310 103311 103312 103313 103314 103315 103399 103400 103401 103402 103404 103405
        103406 103407 103408 103409 103412 103413 103414 103420 103505 103511 103810 103811 103899 103901 103902 103903 103904 103905
        103906 103911 103920 103921 103922 104001 104201 104202 105001 105002 105003 105004 105005 105006 105007 105008 105009 105010
        105011 105012 105013 105014 105015 105018 105019 105312 105313
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// The published `tokenValidate` table (4.3), plus 103420.
    static let publishedVerify = ["000", "001", "002", "003", "004", "102", "124", "302", "303", "606", "999", "102315", "103420"]

    @Test("every code of both tables has an explicit entry, and nothing else is in them")
    func complete() {
        #expect(Self.publishedLogin.count == 117)
        #expect(Set(CMCC.loginCodes.entries.keys) == Set(Self.publishedLogin))
        #expect(Set(CMCC.verifyCodes.entries.keys) == Set(Self.publishedVerify))
    }

    @Test("retryable only where the same token can still succeed, and then the action is retry")
    func honestRetryable() {
        for entry in Array(CMCC.loginCodes.entries.values) + Array(CMCC.verifyCodes.entries.values) where entry.error != nil {
            #expect(entry.retryable == (entry.action == .retry), "\(entry.code)")
            // Only throttling says the carrier did not look at the token.
            #expect(!entry.retryable || entry.error == .rateLimited, "\(entry.code) is retryable")
            let error = entry.makeError(providerMessage: nil)
            #expect(error.retryable == entry.retryable && error.action == entry.action && error.carrierAnswer?.code == entry.code)
        }
        #expect(CMCC.loginCodes.entries["103911"]?.retryable == true)
    }

    @Test(
        "the codes the review named are classified as what they mean",
        arguments: [
            ("103810", "token_invalid", "fallback_sms"), ("103902", "token_invalid", "new_token"), ("103114", "token_invalid", "new_token"),
            ("103115", "token_invalid", "new_token"), ("103116", "token_invalid", "new_token"), ("103117", "token_invalid", "new_token"),
            ("103226", "token_invalid", "new_token"), ("103906", "carrier_rejected", "fix_config"), ("105012", "carrier_rejected", "fallback_sms"),
            ("105013", "carrier_rejected", "fallback_sms"), ("103101", "signature_rejected", "fix_config"), ("104201", "token_invalid", "new_token"),
            ("103511", "ip_not_whitelisted", "fix_config"), ("105312", "quota_exhausted", "contact_provider"), ("103107", "carrier_rejected", "new_token"),
            ("103211", "carrier_error", "contact_provider"), ("103205", "carrier_error", "new_token"), ("103108", "carrier_rejected", "contact_provider"),
        ]
    )
    func namedLoginCodes(code: String, expected: String, action: String) throws {
        let entry = try #require(CMCC.loginCodes.entries[code])
        #expect(entry.error?.rawValue == expected && entry.action.rawValue == action && !entry.retryable)
    }

    @Test("a code whose action differs from its normalized code's default does not repeat that default's advice")
    func messageFollowsTheAction() throws {
        let outdatedSDK = try #require(CMCC.loginCodes.entries["103810"]).makeError(providerMessage: nil)
        #expect(!outdatedSDK.message.contains("get a new token") && outdatedSDK.message.contains("upgrade the SDK"), "\(outdatedSDK.message)")
        let spent = try #require(CMCC.loginCodes.entries["104201"]).makeError(providerMessage: nil)
        #expect(spent.message.hasPrefix(PassgateError.Code.tokenInvalid.defaultMessage))
    }

    @Test("verification 002 (number lookup failed) probably spent the token: not retryable, fall back")
    func verify002() throws {
        let entry = try #require(CMCC.verifyCodes.entries["002"])
        #expect(entry.error == .carrierError && !entry.retryable && entry.action == .fallbackSMS)
    }

    @Test("an undocumented code is carrier_error, not retryable, raw code kept, contact the provider")
    func unknownCode() {
        let error = CMCC.loginCodes["777777"].makeError(providerMessage: "?")
        #expect(error.code == .carrierError && !error.retryable && error.action == .contactProvider)
        #expect(error.carrierAnswer == CarrierAnswer(provider: "cmcc", code: "777777", message: "?"))
    }

    @Test("codes integrators report are marked as not published")
    func reportedCodes() {
        let reported = Set((Array(CMCC.loginCodes.entries.values) + Array(CMCC.verifyCodes.entries.values)).filter { $0.source == .reported }.map(\.code))
        #expect(reported == ["103102", "103420", "105312", "105313"])
    }

    @Test("the classification, counted (printed for the record; the totals are the tables')")
    func counts() {
        var byCode: [String: Int] = [:], retryable = 0, total = 0
        for entry in Array(CMCC.loginCodes.entries.values) + Array(CMCC.verifyCodes.entries.values) {
            byCode[entry.error?.rawValue ?? "success", default: 0] += 1
            if entry.retryable { retryable += 1 }
            total += 1
        }
        print("CMCC codes by normalized code: \(byCode.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")); retryable \(retryable) of \(total)")
        #expect(total == 117 + 13 && byCode["success"] == 3 && retryable == 1)
    }
}
