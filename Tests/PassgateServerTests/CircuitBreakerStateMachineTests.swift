import PassgateCore
import PassgateTestSupport
import Synchronization
import Testing

@testable import PassgateServer

/// The circuit's transitions, driven synchronously with explicit times: no threads, no sleeps.
@Suite("circuit breaker state machine")
struct CircuitBreakerStateMachineTests {
    typealias Machine = CircuitBreakerStateMachine

    @Test("opens after the threshold of consecutive failures; a success resets the count")
    func opensAfterThreshold() {
        var machine = Machine(threshold: 3, openMs: 1000)
        machine.record(failure: true, nowMs: 0)
        machine.record(failure: true, nowMs: 0)
        #expect(machine.permit(nowMs: 0) == .call)
        machine.record(failure: false, nowMs: 0)
        #expect(machine.state == .closed(failures: 0))
        for _ in 0..<3 { machine.record(failure: true, nowMs: 10) }
        #expect(machine.state == .open(untilMs: 1010))
        #expect(machine.permit(nowMs: 1009) == .refused)
    }

    @Test("after the open window exactly one probe goes out; its success closes the circuit, its failure reopens it")
    func probeDecides() {
        var machine = Machine(threshold: 1, openMs: 1000)
        machine.record(failure: true, nowMs: 0)
        #expect(machine.permit(nowMs: 1000) == .probe)
        #expect(machine.permit(nowMs: 1001) == .refused)
        machine.record(failure: true, nowMs: 1100)
        #expect(machine.state == .open(untilMs: 2100))
        #expect(machine.permit(nowMs: 2100) == .probe)
        machine.record(failure: false, nowMs: 2200)
        #expect(machine.permit(nowMs: 2200) == .call && machine.isClosed)
    }

    @Test("a probe that was never sent (the call cap refused it) lets the next call probe at once")
    func unsentProbeDoesNotStickHalfOpen() {
        var machine = Machine(threshold: 1, openMs: 1000)
        machine.record(failure: true, nowMs: 0)
        #expect(machine.permit(nowMs: 1000) == .probe)
        machine.probeNotSent(nowMs: 1005)
        #expect(machine.permit(nowMs: 1005) == .probe)
        machine.record(failure: false, nowMs: 1010)
        #expect(machine.isClosed)
    }

    @Test("a probe that never reports does not hold the circuit half-open for ever: another probe after openMs")
    func lostProbeIsReplaced() {
        var machine = Machine(threshold: 1, openMs: 1000)
        machine.record(failure: true, nowMs: 0)
        #expect(machine.permit(nowMs: 1000) == .probe)
        #expect(machine.permit(nowMs: 1999) == .refused)
        #expect(machine.permit(nowMs: 2000) == .probe)
        #expect(machine.permit(nowMs: 2001) == .refused)
    }

    @Test("probeNotSent on a closed or open circuit changes nothing")
    func probeNotSentOutsideHalfOpen() {
        var machine = Machine(threshold: 2, openMs: 1000)
        machine.record(failure: true, nowMs: 0)
        machine.probeNotSent(nowMs: 1)
        #expect(machine.state == .closed(failures: 1))
        machine.record(failure: true, nowMs: 2)
        machine.probeNotSent(nowMs: 3)
        #expect(machine.state == .open(untilMs: 1002))
    }

    @Test("the owner runs one machine per URL, by the URL's index, with its injected clock")
    func ownerKeepsURLsApart() {
        let breaker = CircuitBreaker(urls: ["https://a.test", "https://b.test"], threshold: 1, openMs: 100, clock: ManualClock(milliseconds: 50))
        #expect(breaker.record(0, failure: true), "record answers whether the circuit is open now")
        #expect(breaker.permit(0) == .refused && breaker.permit(1) == .call)
        #expect(breaker.openURLs == ["https://a.test"] && breaker.isOpen(0) && !breaker.isOpen(1))
        #expect(!breaker.record(1, failure: false))
    }

    @Test("the owner's clock decides: after openMs the URL's next call is the probe, and its success closes the circuit")
    func ownerProbesAfterOpenMs() {
        let clock = ManualClock(milliseconds: 0)
        let breaker = CircuitBreaker(urls: ["https://a.test"], threshold: 1, openMs: 100, clock: clock)
        breaker.record(0, failure: true)
        clock.advance(milliseconds: 99)
        #expect(breaker.permit(0) == .refused)
        clock.advance(milliseconds: 1)
        #expect(breaker.permit(0) == .probe)
        breaker.probeNotSent(0)
        #expect(breaker.permit(0) == .probe, "a probe that never left is granted again")
        #expect(!breaker.record(0, failure: false))
        #expect(breaker.openURLs.isEmpty)
    }
}
