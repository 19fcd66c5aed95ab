import PassgateCore
import ProviderJVerification
import Testing

@Suite("JVerification result codes")
struct JVerificationCodeTableTests {
    @Test("every documented code has an explicit entry; success codes have no error")
    func documentedCodes() {
        let documented = ["8000", "8001", "9000", "9001", "9002", "9003", "9004", "9005", "9006", "9007", "9010", "9011", "9012", "9013",
                          "9015", "9018", "9031", "9099", "1804", "1805"]
        let fromClients = ["9014", "9020", "9021", "9022"]
        #expect(Set(JVerification.codes.entries.keys) == Set(documented + fromClients))
        #expect(Set(JVerification.codes.entries.values.filter { $0.source == .implementation }.map(\.code)) == Set(fromClients))
        #expect(Set(JVerification.codes.entries.values.filter { $0.error == nil }.map(\.code)) == ["8000", "9000", "9001", "9002"])
    }

    @Test("retryable only where the token was not looked at (throttling)")
    func honestRetryable() {
        let retryable = JVerification.codes.entries.values.filter(\.retryable).map(\.code)
        #expect(Set(retryable) == ["9005", "1804"])
        for entry in JVerification.codes.entries.values where entry.retryable { #expect(entry.action == .retry) }
    }

    @Test("an undocumented code is carrier_error for the provider to explain, raw code kept, not retryable")
    func unknownCode() {
        let error = JVerification.codes["2000"].makeError(providerMessage: "?")
        #expect(error.code == .carrierError && !error.retryable && error.action == .contactProvider)
        #expect(error.message.contains("JVerification 2000"))
    }
}
