import PassgateCore
import Logging
import NIOCore
import NIOEmbedded
import PassgateState
import Synchronization
import Testing

@testable import PassgateServer

/// Claims across instances on a manual clock: several exchanges over one store stand for several
/// Passgate instances over one Redis, and the test moves time.
@Suite("claims across instances")
struct ClaimTests {
    static func isClaim(_ answer: String) -> (ObservedStore.Event) -> Bool {
        { $0.operation == .claim && $0.answer == answer }
    }

    @Test("two instances, a call that waits long for its slot, a retry on the other instance: the provider sees the token once and both callers get the number")
    func retryOnAnotherInstanceWaitsForTheCall() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { _ in ScriptedGateway.number() }
        provider.hold(1)
        let a = try harness.instance(provider, leaseMs: 3_000), b = try harness.instance(provider, leaseMs: 3_000)
        let first = harness.request(a)
        var seen = await harness.store.next(after: 0, Self.isClaim("claimed"))
        let holder = try #require(harness.store.all.last?.owner)
        // 5.3 s of queue wait and call: longer than a lease, so only renewal keeps the claim live.
        for _ in 0..<5 {
            await harness.loop.advanceTime(by: .seconds(1))
            seen = await harness.store.next(after: seen) { $0.operation == .renew && $0.answer == "true" }
        }
        await harness.loop.advanceTime(by: .milliseconds(300))
        let retry = harness.request(b)
        seen = await harness.store.next(after: seen) { Self.isClaim("held")($0) && $0.owner != holder }
        provider.letGo(1)
        seen = await harness.store.next(after: seen) { $0.operation == .settle && $0.answer == "stored" }
        await harness.loop.advanceTime(by: .milliseconds(10))
        let answers = [await first.value(), await retry.value()]
        #expect(answers.map { try? $0?.result.get().phoneNumber } == ["13800138000", "13800138000"])
        #expect(answers.map { $0?.replayed } == [false, true])
        #expect(provider.calls == 1)
    }

    @Test("a lease is renewed every third of it for as long as the call lasts; once settled, renewal stops")
    func leaseRenewedWhileTheCallLasts() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { _ in ScriptedGateway.number() }
        provider.hold(1)
        let a = try harness.instance(provider, leaseMs: 3_000)
        let first = harness.request(a)
        var seen = await harness.store.next(after: 0, Self.isClaim("claimed"))
        for _ in 0..<30 {  // ten leases
            await harness.loop.advanceTime(by: .seconds(1))
            seen = await harness.store.next(after: seen) { $0.operation == .renew && $0.answer == "true" }
        }
        #expect(try await harness.store.inner.claim(harness.key(a), owner: "someone-else", leaseMs: 1, ttlMs: 1) == .held)
        provider.letGo(1)
        _ = await first.value()
        let renewals = harness.store.count(.renew)
        await harness.loop.advanceTime(by: .seconds(10))
        #expect(harness.store.count(.renew) == renewals)
        #expect(renewals == 30)
    }

    @Test("a claim whose instance stopped renewing lapses: the next request records that the token may be spent and answers new_token, never calls; retries get the same answer")
    func abandonedClaimIsSpentOutcomeUnknown() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { _ in ScriptedGateway.number() }
        let b = try harness.instance(provider, leaseMs: 3_000)
        #expect(try await harness.store.inner.claim(harness.key(b), owner: "stopped-instance", leaseMs: 3_000, ttlMs: 300_000) == .claimed)
        await harness.loop.advanceTime(by: .milliseconds(3_001))
        let answer = await harness.request(b).value()
        let error = try #require(answer?.error)
        #expect(error.code == .carrierTimeout && error.action == .newToken && !error.retryable)
        #expect(error.message.contains("may be spent"))
        let again = await harness.request(try harness.instance(provider)).value()
        #expect(again?.error?.code == .carrierTimeout && again?.error?.action == .newToken && again?.replayed == true)
        #expect(provider.calls == 0)
    }

    @Test("the first outcome wins: an instance whose lease lapsed mid-call answers its caller with the number, but the may-be-spent answer another request recorded stays for retries")
    func firstOutcomeWins() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { _ in ScriptedGateway.number() }
        provider.hold(1)
        harness.store.failing.withLock { $0 = [.renew] }
        let a = try harness.instance(provider, leaseMs: 3_000), b = try harness.instance(provider, leaseMs: 3_000)
        let first = harness.request(a)
        await harness.store.next(after: 0, Self.isClaim("claimed"))
        await harness.loop.advanceTime(by: .milliseconds(3_001))
        let other = await harness.request(b).value()
        #expect(other?.error?.code == .carrierTimeout && other?.error?.action == .newToken)
        provider.letGo(1)
        let answer = await first.value()
        #expect((try? answer?.result.get())?.phoneNumber == "13800138000")
        #expect(harness.store.all.contains { $0.operation == .settle && $0.answer == "kept" })
        let retry = await harness.request(a).value()
        #expect(retry?.error?.code == .carrierTimeout && retry?.replayed == true)
        #expect(provider.calls == 1)
    }

    @Test("a request that finds a live claim waits at most inFlightWaitMs, then answers call_in_progress (retryable, Retry-After) without a call")
    func waitIsBounded() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { _ in ScriptedGateway.number() }
        provider.hold(1)
        let a = try harness.instance(provider, leaseMs: 3_000), b = try harness.instance(provider, inFlightWaitMs: 1_000)
        let first = harness.request(a)
        let seen = await harness.store.next(after: 0, Self.isClaim("claimed"))
        let waiting = harness.request(b)
        await harness.store.next(after: seen, Self.isClaim("held"))
        await harness.loop.advanceTime(by: .milliseconds(999))
        #expect(!waiting.isFinished)
        await harness.loop.advanceTime(by: .milliseconds(2))
        let error = try #require(await waiting.value()?.error)
        #expect(error.code == .callInProgress && error.retryable && error.action == .retry && error.retryAfterSeconds == 1)
        #expect(error.code.httpStatus == 409)
        provider.letGo(1)
        _ = await first.value()
        #expect(provider.calls == 1)
    }

    @Test("a claim released because its call never left is taken by the waiting request, which makes the one call")
    func releasedClaimIsTakenOver() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { call in
            call == 1
                ? CarrierExchange(call: nil, result: .failure(PassgateError(transport: TransportFailure(kind: .notStarted, detail: "call cap", host: "h"))))
                : ScriptedGateway.number("T2")
        }
        provider.hold(1)
        let a = try harness.instance(provider), b = try harness.instance(provider)
        let first = harness.request(a)
        var seen = await harness.store.next(after: 0, Self.isClaim("claimed"))
        let second = harness.request(b)
        seen = await harness.store.next(after: seen, Self.isClaim("held"))
        provider.letGo(1)
        seen = await harness.store.next(after: seen) { $0.operation == .release }
        await harness.loop.advanceTime(by: .milliseconds(10))
        #expect(await first.value()?.error?.code == .carrierUnavailable)
        let answer = await second.value()
        #expect((try? answer?.result.get())?.carrierTaskId == "T2" && answer?.replayed == false)
        #expect(provider.calls == 2)
    }

    @Test("the store failing after the call: the outcome is written again after each pause and kept once the store answers")
    func settleRetriedWithBackoff() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { _ in ScriptedGateway.number() }
        harness.store.failing.withLock { $0 = [.settle] }
        let a = try harness.instance(provider)
        let first = harness.request(a)
        let isFailedSettle: (ObservedStore.Event) -> Bool = { $0.operation == .settle && $0.answer == "failed" }
        var seen = await harness.store.next(after: 0, isFailedSettle)
        await harness.loop.advanceTime(by: .milliseconds(49))
        #expect(harness.store.all.dropFirst(seen).allSatisfy { $0.operation != .settle })
        await harness.loop.advanceTime(by: .milliseconds(1))
        seen = await harness.store.next(after: seen, isFailedSettle)
        harness.store.failing.withLock { $0 = [] }
        await harness.loop.advanceTime(by: .milliseconds(200))
        await harness.store.next(after: seen) { $0.operation == .settle && $0.answer == "stored" }
        #expect((try? await first.value()?.result.get())?.phoneNumber == "13800138000")
        #expect(harness.metricsText().contains(#"passgate_state_store_giveups_total{operation="settle"} 0"#))
        #expect(await harness.request(a).value()?.replayed == true)
        #expect(provider.calls == 1)
    }

    @Test("the store down after the call: the caller gets the number, the give-up is counted, and once the claim lapses a retry is told the token may be spent, with no second call")
    func settleGivesUp() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { _ in ScriptedGateway.number() }
        harness.store.failing.withLock { $0 = [.settle, .renew] }
        let a = try harness.instance(provider, leaseMs: 3_000, writeRetryDelaysMs: [50, 200])
        let first = harness.request(a)
        var seen = 0
        for pause in [50, 200] {
            seen = await harness.store.next(after: seen) { $0.operation == .settle && $0.answer == "failed" }
            await harness.loop.advanceTime(by: .milliseconds(Int64(pause)))
        }
        #expect((try? await first.value()?.result.get())?.phoneNumber == "13800138000")
        #expect(harness.store.count(.settle) == 3)
        #expect(harness.metricsText().contains(#"passgate_state_store_giveups_total{operation="settle"} 1"#))
        harness.store.failing.withLock { $0 = [] }
        await harness.loop.advanceTime(by: .seconds(3))
        let retry = await harness.request(try harness.instance(provider)).value()
        #expect(retry?.error?.code == .carrierTimeout && retry?.error?.action == .newToken)
        #expect(provider.calls == 1)
    }

    @Test("a claim the store answers twice (a command repeated after a reconnect) is still this request's own: it calls once")
    func repeatedClaimIsOwn() async throws {
        let harness = ExchangeHarness()
        let provider = ScriptedGateway { _ in ScriptedGateway.number() }
        let a = try harness.instance(provider)
        let key = harness.key(a)
        // What a lost reply and a resend look like to Redis: the same owner's claim arrives twice.
        let owner = "request-1"
        #expect(try await harness.store.claim(key, owner: owner, leaseMs: 3_000, ttlMs: 300_000) == .claimed)
        #expect(try await harness.store.claim(key, owner: owner, leaseMs: 3_000, ttlMs: 300_000) == .claimed)
        #expect(try await harness.store.claim(key, owner: "request-2", leaseMs: 3_000, ttlMs: 300_000) == .held)
    }
}
