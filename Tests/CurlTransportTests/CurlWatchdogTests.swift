import Testing

@testable import CurlTransport

/// The socket loop's watchdog, driven with explicit times: no curl, no sleeps.
@Suite("Curl watchdog")
struct CurlWatchdogTests {
    let t0 = ContinuousClock.now

    @Test("sweeps every 250 ms while transfers run: past the deadline by 100 ms a transfer is nudged, by a second it is abandoned and forgotten")
    func nudgeThenAbandon() {
        var watchdog = CurlWatchdog(enabled: true, now: t0)
        watchdog.started(1, deadline: t0 + .milliseconds(100))
        watchdog.started(2, deadline: t0 + .seconds(60))
        #expect(watchdog.sweep(now: t0 + .milliseconds(249)) == .init(), "not due yet")
        #expect(watchdog.sweep(now: t0 + .milliseconds(250)) == .init(nudge: [1]))
        #expect(watchdog.sweep(now: t0 + .milliseconds(400)) == .init(), "the next sweep is 250 ms after the last")
        #expect(watchdog.sweep(now: t0 + .milliseconds(500)) == .init(nudge: [1]))
        #expect(watchdog.sweep(now: t0 + .milliseconds(1_101)) == .init(abandon: [1]))
        #expect(watchdog.watchedCount == 1)
        #expect(watchdog.sweep(now: t0 + .milliseconds(1_400)) == .init(), "an abandoned transfer is not reported twice")
    }

    @Test("exactly at the thresholds nothing happens: strictly past them it does")
    func thresholds() {
        var watchdog = CurlWatchdog(enabled: true, now: t0)
        let deadline = t0 + .seconds(1)
        watchdog.started(7, deadline: deadline)
        #expect(watchdog.sweep(now: deadline + .milliseconds(100)) == .init())
        #expect(watchdog.sweep(now: deadline + .milliseconds(351)) == .init(nudge: [7]))
        #expect(watchdog.sweep(now: deadline + .seconds(1)) == .init(nudge: [7]))
        #expect(watchdog.sweep(now: deadline + .milliseconds(1_251)) == .init(abandon: [7]))
    }

    @Test("a transfer that ended is no longer watched; with none watched no sweep runs and waits are not capped")
    func endedAndIdle() {
        var watchdog = CurlWatchdog(enabled: true, now: t0)
        #expect(watchdog.maxWait(1_000) == 1_000)
        watchdog.started(1, deadline: t0)
        #expect(watchdog.maxWait(1_000) == 250 && watchdog.maxWait(100) == 100)
        watchdog.ended(1)
        #expect(watchdog.maxWait(1_000) == 1_000)
        #expect(watchdog.sweep(now: t0 + .seconds(10)) == .init())
        // The schedule did not move while idle: a transfer started now is swept at once.
        watchdog.started(2, deadline: t0)
        #expect(watchdog.sweep(now: t0 + .seconds(10)) == .init(abandon: [2]))
    }

    @Test("several overdue transfers are reported in id order")
    func order() {
        var watchdog = CurlWatchdog(enabled: true, now: t0)
        for id in [9, 3, 5, 1] as [UInt64] { watchdog.started(id, deadline: t0) }
        watchdog.started(4, deadline: t0 + .seconds(1))
        #expect(watchdog.sweep(now: t0 + .milliseconds(1_150)) == .init(nudge: [4], abandon: [1, 3, 5, 9]))
    }

    @Test("disabled (the portable loop): watches nothing, never sweeps, never caps a wait")
    func disabled() {
        var watchdog = CurlWatchdog(enabled: false, now: t0)
        watchdog.started(1, deadline: t0)
        #expect(watchdog.watchedCount == 0)
        #expect(watchdog.maxWait(1_000) == 1_000)
        #expect(watchdog.sweep(now: t0 + .seconds(5)) == .init())
    }
}
