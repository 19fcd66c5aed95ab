import Testing

@testable import PassgateServer

/// The call cap's transitions, driven synchronously: no tasks, no sleeps.
@Suite("call cap state machine")
struct CallLimiterStateMachineTests {
    typealias Machine = CallLimiterStateMachine

    @Test("free slots are granted without waiting; a full cap queues tickets in order, or refuses when waiting is not allowed")
    func acquire() {
        var machine = Machine(limit: 2)
        #expect(machine.acquire(mayWait: true) == .granted && machine.acquire(mayWait: true) == .granted)
        #expect(machine.acquire(mayWait: false) == .refused)
        #expect(machine.acquire(mayWait: true) == .wait(ticket: 0) && machine.acquire(mayWait: true) == .wait(ticket: 1))
        #expect(machine.waitingCount == 2 && machine.available == 0)
    }

    @Test("a release grants the longest waiter; with nobody waiting the slot is freed")
    func release() {
        var machine = Machine(limit: 1)
        _ = machine.acquire(mayWait: true)
        _ = machine.acquire(mayWait: true)
        _ = machine.acquire(mayWait: true)
        #expect(machine.release() == .grant(ticket: 0))
        #expect(machine.release() == .grant(ticket: 1))
        #expect(machine.release() == .freed && machine.available == 1 && machine.waitingCount == 0)
    }

    @Test("a waiter that timed out is skipped by the next release, which grants the one after it")
    func timedOutIsSkipped() {
        var machine = Machine(limit: 1)
        _ = machine.acquire(mayWait: true)
        _ = machine.acquire(mayWait: true)  // ticket 0
        _ = machine.acquire(mayWait: true)  // ticket 1
        let expired = machine.timedOut(ticket: 0)
        #expect(expired && machine.waitingCount == 1)
        #expect(machine.release() == .grant(ticket: 1))
    }

    @Test("a waiter granted before its timer fires keeps its slot: the late timeout is ignored")
    func grantedBeforeTimeout() {
        var machine = Machine(limit: 1)
        _ = machine.acquire(mayWait: true)
        _ = machine.acquire(mayWait: true)  // ticket 0
        #expect(machine.release() == .grant(ticket: 0))
        let late = machine.timedOut(ticket: 0)
        #expect(!late)
        #expect(machine.release() == .freed && machine.available == 1)
    }

    @Test("a limit of 0 never grants; a negative one counts as 0")
    func zeroLimit() {
        var machine = Machine(limit: -3)
        #expect(machine.acquire(mayWait: false) == .refused && machine.available == 0)
    }
}
