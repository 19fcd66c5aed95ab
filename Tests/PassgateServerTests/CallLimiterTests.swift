import PassgateLiveTestSupport
import PassgateCore
import ProviderCMCC
import CurlTransport
import Foundation
import NIOCore
import NIOEmbedded
import PassgateConfig
import PassgateTestSupport
import Synchronization
import Testing

@testable import PassgateServer

@Suite("carrier call cap", .timeLimit(.minutes(1)))
struct CallLimiterTests {
    /// Numbers in the order they were recorded (gauge reports, grant order).
    final class Reports: Sendable {
        let values = Mutex<[Int]>([])
        func record(_ waiting: Int) { values.withLock { $0.append(waiting) } }
        var all: [Int] { values.withLock { $0 } }
    }

    @Test("never more than the limit run at once, and every caller gets a turn")
    func neverOverLimit() async {
        final class Tally: Sendable { let state = Mutex((now: 0, peak: 0, done: 0)) }
        let limiter = CallLimiter(limit: 2, maxWait: .seconds(30))
        let tally = Tally()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    guard await limiter.acquire() == .granted else { return }
                    tally.state.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                    try? await Task.sleep(for: .milliseconds(20))
                    tally.state.withLock { $0.now -= 1; $0.done += 1 }
                    limiter.release()
                }
            }
        }
        #expect(tally.state.withLock { $0.peak } == 2)
        #expect(tally.state.withLock { $0.done } == 12)
        #expect(limiter.waiting == 0)
    }

    @Test("waiters get freed slots in the order they arrived")
    func firstComeFirstServed() async throws {
        let limiter = CallLimiter(limit: 1, maxWait: .seconds(30))
        #expect(await limiter.acquire() == .granted)
        let order = Reports()
        var waiters: [Task<Void, Never>] = []
        for index in 0..<5 {
            waiters.append(Task {
                guard await limiter.acquire() == .granted else { return }
                order.record(index)
                limiter.release()
            })
            try #require(await eventually { limiter.waiting == index + 1 })
        }
        limiter.release()
        for waiter in waiters { await waiter.value }
        #expect(order.all == [0, 1, 2, 3, 4])
    }

    @Test("a waiter with no slot within maxWait is told so, and the slot goes to the next waiter instead")
    func waitIsBounded() async throws {
        // The limits run on a loop whose clock the test moves: a waiter is still queued while
        // the test looks, however slowly this process's tasks get their turn.
        let loop = NIOAsyncTestingEventLoop()
        let reports = Reports()
        let limiter = CallLimiter(limit: 1, maxWait: .milliseconds(100), timers: loop, waitingChanged: reports.record)
        #expect(await limiter.acquire() == .granted)
        let expiring = Task { await limiter.acquire() }
        try #require(await eventually { limiter.waiting == 1 })
        await loop.advanceTime(by: .milliseconds(100))
        #expect(await expiring.value == .timedOut)
        #expect(limiter.waiting == 0 && reports.all == [1, 0])

        // The timed-out waiter's place in the queue is skipped: the release goes to this one.
        let next = Task { await limiter.acquire() }
        try #require(await eventually { limiter.waiting == 1 })
        limiter.release()
        #expect(await next.value == .granted)
        limiter.release()
        #expect(await limiter.acquire() == .granted, "the slot came back after the last release")
        #expect(reports.all == [1, 0, 1, 0])
        // Runs what cancelled timers left queued (their promises' failure) before the loop goes.
        await loop.run()
        await loop.shutdownGracefully()
    }

    @Test("with the system's event loops, a waiter with no slot is told so once maxWait has passed")
    func waitIsBoundedInRealTime() async {
        let limiter = CallLimiter(limit: 1, maxWait: .milliseconds(100))
        #expect(await limiter.acquire() == .granted)
        let started = ContinuousClock.now
        #expect(await limiter.acquire() == .timedOut)
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        #expect(limiter.waiting == 0)
    }

    @Test("a waiter's limit runs on the event loop it was given: it expires when that loop's clock passes maxWait, not before")
    func waitRunsOnTheEventLoopClock() async throws {
        let loop = NIOAsyncTestingEventLoop()
        let limiter = CallLimiter(limit: 1, maxWait: .milliseconds(200), timers: loop)
        #expect(await limiter.acquire() == .granted)
        let waiter = Task { await limiter.acquire() }
        try #require(await eventually { limiter.waiting == 1 })
        await loop.advanceTime(by: .milliseconds(199))
        // Longer than maxWait in real time: a limit kept by sleeping would have expired by now.
        try await Task.sleep(for: .milliseconds(400))
        #expect(limiter.waiting == 1)
        await loop.advanceTime(by: .milliseconds(1))
        #expect(await waiter.value == .timedOut)
        #expect(limiter.waiting == 0)
        // Runs what cancelled timers left queued (their promises' failure) before the loop goes.
        await loop.run()
        await loop.shutdownGracefully()
    }

    @Test("a waiter granted a slot keeps it: its timer does not fire later and take the slot away")
    func grantedWaiterKeepsSlot() async throws {
        let loop = NIOAsyncTestingEventLoop()
        let reports = Reports()
        let limiter = CallLimiter(limit: 1, maxWait: .milliseconds(100), timers: loop, waitingChanged: reports.record)
        #expect(await limiter.acquire() == .granted)
        let waiter = Task { await limiter.acquire() }
        try #require(await eventually { limiter.waiting == 1 })
        limiter.release()
        #expect(await waiter.value == .granted)
        // Past the granted waiter's limit: had its timer not been cancelled, it would run now.
        await loop.advanceTime(by: .milliseconds(250))
        // Still held by the granted waiter: nothing was freed or handed out twice.
        let third = Task { await limiter.acquire() }
        try #require(await eventually { limiter.waiting == 1 })
        await loop.advanceTime(by: .milliseconds(100))
        #expect(await third.value == .timedOut)
        #expect(reports.all == [1, 0, 1, 0])
        // Runs what cancelled timers left queued (their promises' failure) before the loop goes.
        await loop.run()
        await loop.shutdownGracefully()
    }

    @Test("with maxWait 0 a full cap answers at once, without queueing")
    func zeroWaitFailsAtOnce() async {
        let reports = Reports()
        let limiter = CallLimiter(limit: 2, maxWait: .zero, waitingChanged: reports.record)
        #expect(await limiter.acquire() == .granted)
        #expect(await limiter.acquire() == .granted)
        #expect(await limiter.acquire() == .timedOut)
        limiter.release()
        #expect(await limiter.acquire() == .granted)
        #expect(reports.all.isEmpty)
    }

    @Test("the answer for a full cap names both keys, says the request was not sent, and asks to retry after 1 s")
    func capReachedMessage() throws {
        var settings = ProviderSettings(id: "cmcc", baseURLs: ["https://www.cmpassport.com"])
        settings.maxConcurrentCalls = 64
        for (wait, expected) in [(250, "none finished within 250 ms (providers.cmcc.callQueueTimeoutMs)"),
                                 (0, "providers.cmcc.callQueueTimeoutMs is 0, so requests do not wait")] {
            settings.callQueueTimeoutMs = wait
            let exchange: CarrierExchange<PhoneNumberOutcome> = ProviderGateway.callCapReached(settings, host: "www.cmpassport.com")
            #expect(exchange.call == nil, "no carrier call was made")
            guard case .failure(let error) = exchange.result else { Issue.record("a full cap must fail"); continue }
            #expect(error.code == .carrierUnavailable && error.retryAfterSeconds == 1)
            let message = error.message
            #expect(message.contains("64 calls to cmcc in flight (providers.cmcc.maxConcurrentCalls)") && message.contains(expected), "\(message)")
            #expect(message.contains("not sent") && message.contains("same token is safe"))
        }
    }

}
