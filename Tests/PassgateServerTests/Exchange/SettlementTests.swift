import PassgateCore
import Testing

@testable import PassgateServer

/// What the replay cache remembers after a call, by how the call ended.
@Suite("settlement")
struct SettlementTests {
    static func failed(_ error: PassgateError, sent: Bool = true) -> CarrierExchange<PhoneNumberOutcome> {
        sent ? ScriptedGateway.sent(.failure(error)) : CarrierExchange(call: nil, result: .failure(error))
    }

    static func settle(_ exchange: CarrierExchange<PhoneNumberOutcome>) -> Settlement {
        Settlement(exchange) { .phoneNumber(phoneNumber: $0.phoneNumber, taskId: $0.carrierTaskId, riskScore: nil) }
    }

    static func transport(_ kind: TransportFailure.Kind) -> PassgateError {
        PassgateError(transport: TransportFailure(kind: kind, detail: "d", host: "h"))
    }

    @Test("may have left without a known outcome (timeout or reset after sending, a cut or unreadable reply): recorded as may-be-spent, answered new_token",
          arguments: [TransportFailure.Kind.sendFailure, .noAnswer, .timeoutAfterSend, .truncatedReply, .responseTooLarge])
    func mayBeSpent(kind: TransportFailure.Kind) throws {
        guard case .store(let outcome) = Self.settle(Self.failed(Self.transport(kind))) else { Issue.record("not stored"); return }
        let error = try #require(outcome.error)
        #expect(error.action == .newToken && !error.retryable && error.message.contains("may be spent"))
        #expect(error.code == Self.transport(kind).code)
    }

    @Test("a reply that is not the protocol's (HTML, not JSON, another msgid) is may-be-spent too")
    func unreadableReply() throws {
        let error = PassgateError(.carrierBadResponse, .reply(.notJSON(body: BodyShape(body: Array("oops".utf8), contentType: "text/plain"))))
        guard case .store(let outcome) = Self.settle(Self.failed(error)) else { Issue.record("not stored"); return }
        #expect(outcome.error?.code == .carrierBadResponse && outcome.error?.action == .newToken)
    }

    @Test("provably not sent (refused, DNS, TLS, call cap, open circuit, a request not built): nothing recorded, the claim released",
          arguments: [TransportFailure.Kind.dnsFailure, .connectionRefused, .connectTimeout, .tlsFailure, .proxyFailure, .notStarted])
    func notSent(kind: TransportFailure.Kind) {
        #expect(Self.settle(Self.failed(Self.transport(kind))) == .release)
        #expect(Self.settle(Self.failed(.internalError("not built"), sent: false)) == .release)
    }

    @Test("the provider's own answer is final unless its code says the same token may be retried")
    func providerAnswers() {
        let answer = CarrierAnswer(provider: "cmcc", code: "103101", message: "sign error")
        let rejected = PassgateError(.signatureRejected, .carrier(answer))
        #expect(Self.settle(Self.failed(rejected)) == .store(StoredOutcome(rejected)))
        let busy = PassgateError(.rateLimited, .carrier(CarrierAnswer(provider: "cmcc", code: "103911", message: nil)), retryable: true)
        #expect(Self.settle(Self.failed(busy)) == .release)
        let decrypt = PassgateError(.msisdnDecryptFailed, .decryption(detail: "bad padding"))
        #expect(Self.settle(Self.failed(decrypt)) == .store(StoredOutcome(decrypt)))
    }

    @Test("a success is stored; something local that went wrong around a sent call is may-be-spent")
    func successAndLocal() {
        #expect(Self.settle(ScriptedGateway.number("T9")) == .store(.phoneNumber(phoneNumber: "13800138000", taskId: "T9", riskScore: nil)))
        guard case .store(let outcome) = Self.settle(Self.failed(.internalError("transport threw"))) else { Issue.record("not stored"); return }
        #expect(outcome.error?.action == .newToken)
    }
}
