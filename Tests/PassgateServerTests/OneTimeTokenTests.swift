import PassgateTestSupport
import PassgateLiveTestSupport
import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Foundation
import Logging
import PassgateConfig
import PassgateState
import Prometheus
import Synchronization
import Testing

@testable import PassgateServer

/// Nothing lost, nothing spent twice: the exchange driven directly, and a client that hangs up
/// over the wire. Single flight, fail-over and what is remembered run through the API in-process
/// (`OneTimeTokenInProcessTests`).
@Suite("one-time tokens")
struct OneTimeTokenTests {
    static let md5 = TestConfiguration.md5App

    @Test("a client that disconnects mid-call and retries gets the number from the one carrier call")
    func disconnectThenRetry() async throws {
        try await withRunningPassgate { passgate in
            try await passgate.setFault("none", latencyMs: 1200)
            let token = try await passgate.mintToken(appId: Self.md5, phone: "13612345678")
            let body = [UInt8](try JSONSerialization.data(withJSONObject: ["appId": Self.md5, "token": token]))
            let impatient = CurlHTTPClient()
            await #expect(throws: CurlTransportError.self) {
                _ = try await impatient.send(.init(
                    method: .post, url: passgate.api + "/v1/phone-number",
                    headers: [("Authorization", "Bearer \(TestConfiguration.apiKey)"), ("Content-Type", "application/json")], body: body, timeoutMs: 300
                ))
            }
            await impatient.shutdown(gracePeriodMs: 0)
            // The retry goes once the one carrier call has been answered, not while it is in flight.
            let answered = #"passgate_carrier_outcomes_total{provider="cmcc",operation="phone_number",code="ok"} 1"#
            try #require(try await eventually { try await passgate.metrics().contains(answered) })
            let retry = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
            #expect(retry.status == 200 && retry.json["phoneNumber"] as? String == "13612345678", "\(retry.body)")
            #expect(retry.json["replayed"] as? Bool == true)
            #expect(try await passgate.sandboxCalls() == 1)
        }
    }

    /// A gateway that counts calls and answers from a script.
    final class CountingGateway: CarrierGateway {
        let calls = Mutex(0)
        let answer: @Sendable (Int) -> Result<PhoneNumberOutcome, PassgateError>

        init(answer: @escaping @Sendable (Int) -> Result<PhoneNumberOutcome, PassgateError>) { self.answer = answer }

        func phoneNumber(app: AppSettings, token: String, fields: ProviderFields, logger: Logger) async -> CarrierExchange<PhoneNumberOutcome> {
            let call = calls.withLock { $0 += 1; return $0 }
            return CarrierExchange(call: nil, result: answer(call))
        }

        func verify(app: AppSettings, token: String, phoneNumber: String, fields: ProviderFields, logger: Logger) async -> CarrierExchange<VerificationOutcome> {
            CarrierExchange(call: nil, result: .success(VerificationOutcome(result: .match, carrierTaskId: nil)))
        }
    }

    /// The memory store, counting the claims, renewals, settles and releases that reach it,
    /// shared or not as the test says.
    final class CountingStore: ExchangeStateStore {
        let inner = MemoryStateStore()
        let shared: Bool
        let roundTrips = Mutex(0)

        init(shared: Bool) { self.shared = shared }

        var isShared: Bool { shared }
        func get(_ key: String) async throws(StateStoreError) -> [UInt8]? { try await inner.get(key) }
        func settle(_ key: String, value: [UInt8], ttlMs: Int, owner: String?) async throws(StateStoreError) -> [UInt8]? {
            roundTrips.withLock { $0 += 1 }
            return try await inner.settle(key, value: value, ttlMs: ttlMs, owner: owner)
        }
        func claim(_ key: String, owner: String, leaseMs: Int, ttlMs: Int) async throws(StateStoreError) -> ClaimAnswer {
            roundTrips.withLock { $0 += 1 }
            return try await inner.claim(key, owner: owner, leaseMs: leaseMs, ttlMs: ttlMs)
        }
        func renew(_ key: String, owner: String, leaseMs: Int) async throws(StateStoreError) -> Bool {
            roundTrips.withLock { $0 += 1 }
            return try await inner.renew(key, owner: owner, leaseMs: leaseMs)
        }
        func release(_ key: String, owner: String) async throws(StateStoreError) {
            roundTrips.withLock { $0 += 1 }
            try await inner.release(key, owner: owner)
        }
        func ping() async throws(StateStoreError) {}
    }

    static func exchange(_ gateway: any CarrierGateway, store: any ExchangeStateStore, ttlMs: Int = 300_000) throws -> OneTimeTokenExchange {
        try OneTimeTokenExchange(
            gateway: gateway, store: store, replayKey: Array(repeating: 7, count: 32), ttlMs: ttlMs,
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())))
    }

    @Test("a store no other instance sees gets only the outcome's write; a shared one a claim and a write (the write drops the claim) per call, and one claim per repeat (it answers with the outcome)")
    func claimsOnlyWhenShared() async throws {
        for shared in [false, true] {
            let store = CountingStore(shared: shared)
            let gateway = CountingGateway { _ in .success(PhoneNumberOutcome(phoneNumber: "13800138000", carrierTaskId: "T")) }
            let exchange = try Self.exchange(gateway, store: store)
            let first = await exchange.phoneNumber(client: "c", app: TestConfiguration.make().apps[0], token: "tok", logger: Logger(label: "test"))
            #expect((try? first.result.get())?.phoneNumber == "13800138000" && !first.replayed)
            let replay = await exchange.phoneNumber(client: "c", app: TestConfiguration.make().apps[0], token: "tok", logger: Logger(label: "test"))
            #expect(replay.replayed && gateway.calls.withLock { $0 } == 1)
            #expect(store.roundTrips.withLock { $0 } == (shared ? 3 : 1), "shared: \(shared)")
        }
    }

    @Test("replay entries expire after their TTL; a timeout after sending is remembered as may-be-spent, a refused connection is not")
    func expiryAndWhatIsRemembered() async throws {
        let clock = ManualClock(milliseconds: 0)
        let store = MemoryStateStore(clock: clock)
        let gateway = CountingGateway { call in
            switch call {
            case 1: .failure(PassgateError(transport: TransportFailure(kind: .connectionRefused, detail: "", host: "h")))
            case 2: .success(PhoneNumberOutcome(phoneNumber: "13800138000", carrierTaskId: "T2"))
            default: .failure(PassgateError(transport: TransportFailure(kind: .timeoutAfterSend, detail: "", host: "h")))
            }
        }
        let exchange = try Self.exchange(gateway, store: store)
        let app = TestConfiguration.make().apps[0]
        let logger = Logger(label: "test")
        let first = await exchange.phoneNumber(client: "c", app: app, token: "tok", logger: logger)
        #expect(first.result.failureCode == .carrierUnavailable && !first.replayed)
        let second = await exchange.phoneNumber(client: "c", app: app, token: "tok", logger: logger)
        #expect((try? second.result.get())?.carrierTaskId == "T2" && !second.replayed)
        let third = await exchange.phoneNumber(client: "c", app: app, token: "tok", logger: logger)
        #expect((try? third.result.get())?.carrierTaskId == "T2" && third.replayed)
        clock.advance(milliseconds: 300_001)
        let fourth = await exchange.phoneNumber(client: "c", app: app, token: "tok", logger: logger)
        #expect(fourth.result.failureCode == .carrierTimeout && !fourth.replayed)
        let fifth = await exchange.phoneNumber(client: "c", app: app, token: "tok", logger: logger)
        #expect(fifth.result.failureCode == .carrierTimeout && fifth.replayed)
        if case .failure(let error) = fifth.result { #expect(error.action == .newToken && !error.retryable && error.message.contains("may be spent")) }
        let otherClient = await exchange.phoneNumber(client: "d", app: app, token: "tok", logger: logger)
        #expect(!otherClient.replayed)
        #expect(gateway.calls.withLock { $0 } == 4)
    }

    @Test("replay keys are keyed hashes: no token in them, and they differ per client, app, operation and phone")
    func replayKeys() throws {
        let exchange = try OneTimeTokenExchange(
            gateway: CountingGateway { _ in .failure(.internalError("x")) }, store: MemoryStateStore(), replayKey: Array(repeating: 1, count: 32),
            ttlMs: 1000, metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())))
        let keys = [
            exchange.replayKey("c", "a", "phone_number", "STsidTOKEN"), exchange.replayKey("d", "a", "phone_number", "STsidTOKEN"),
            exchange.replayKey("c", "b", "phone_number", "STsidTOKEN"), exchange.replayKey("c", "a", "verify", "STsidTOKEN", "13800138000"),
            exchange.replayKey("c", "a", "verify", "STsidTOKEN", "13800138001"), exchange.replayKey("ca", "", "phone_number", "STsidTOKEN"),
        ]
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy { $0 != nil && $0!.count == 64 && !$0!.contains("TOKEN") })
        // The same inputs under the same key give the same replay key (the keyed template is reused).
        #expect(exchange.replayKey("c", "a", "phone_number", "STsidTOKEN") == keys[0])
        // Pinned: instances of different versions share these keys in Redis during a rolling
        // upgrade. printf 'c\x1fa\x1fverify\x1fSTsidTOKEN\x1f13800138000' |
        //   openssl mac -digest SHA256 -macopt hexkey:0101…01 (32 bytes) HMAC
        #expect(keys[3] == "fbbc49a0f630dbc030950d10e5a7043acbd2a1ece022f84b8703fb83d2eb5646")
    }
}

extension Result where Failure == PassgateError {
    var failureCode: PassgateError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
