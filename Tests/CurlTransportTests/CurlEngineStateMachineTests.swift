import Testing

@testable import CurlTransport

/// The engine's call phases and lifecycle, driven synchronously with explicit times: no curl, no
/// threads, no sleeps. Calls are plain strings.
@Suite("Curl engine state machine")
struct CurlEngineStateMachineTests {
    typealias Machine = CurlEngineStateMachine<String>

    let t0 = ContinuousClock.now

    @Test("registered → queued → active → finished: one call's way, with the counts and gauges on each step")
    func oneCall() {
        var machine = Machine(maxActive: 4)
        let id = machine.register()
        #expect(machine.phase(of: id) == .registered)
        #expect(machine.counts == (active: 0, queued: 0, tracked: 1))
        #expect(machine.submit(id, "a") == .wakeEngine)
        #expect(machine.phase(of: id) == .queued && machine.counts == (active: 0, queued: 1, tracked: 1))

        let turn = machine.nextTurn(now: t0)
        #expect(turn.admit.map(\.id) == [id] && turn.admit.map(\.call) == ["a"])
        #expect(turn.maxWaitMs == 0, "a new transfer starts in the same turn")
        #expect(!turn.exit && !turn.abortActive && turn.cancel.isEmpty && turn.expire.isEmpty)
        #expect(machine.phase(of: id) == .active && machine.counts == (active: 1, queued: 0, tracked: 1))
        #expect(machine.ended([]) == .init(inFlight: 1, queued: 0))

        let idle = machine.nextTurn(now: t0)
        #expect(idle.admit.isEmpty && idle.maxWaitMs == Machine.idleWaitMs)
        #expect(machine.ended([]) == nil, "unchanged gauges are not reported again")
        #expect(machine.ended([id]) == .init(inFlight: 0, queued: 0))
        #expect(machine.phase(of: id) == nil && machine.counts == (active: 0, queued: 0, tracked: 0))
        #expect(machine.lifecycle == .running)
    }

    @Test("at most maxActive transfers: the rest wait in FIFO order, and a finished one lets the next in without a wait")
    func capAndQueue() {
        var machine = Machine(maxActive: 2)
        let ids = submitCalls(5, to: &machine)
        var turn = machine.nextTurn(now: t0)
        #expect(turn.admit.map(\.call) == ["call 0", "call 1"])
        #expect(machine.counts == (active: 2, queued: 3, tracked: 5))
        #expect(machine.ended([]) == .init(inFlight: 2, queued: 3))
        turn = machine.nextTurn(now: t0)
        #expect(turn.admit.isEmpty && turn.maxWaitMs == Machine.idleWaitMs, "no slot: wait for curl")
        #expect(machine.ended([ids[1]]) == .init(inFlight: 1, queued: 3))
        turn = machine.nextTurn(now: t0)
        #expect(turn.admit.map(\.call) == ["call 2"] && turn.maxWaitMs == 0)
        _ = machine.ended([ids[0], ids[2]])
        turn = machine.nextTurn(now: t0)
        #expect(turn.admit.map(\.call) == ["call 3", "call 4"])
        #expect(machine.counts == (active: 2, queued: 0, tracked: 2))
    }

    @Test("one wake-up per turn: calls queued or cancelled before the engine's next turn begins do not wake it again")
    func oneWakeUpPerTurn() {
        var machine = Machine(maxActive: 8)
        let first = machine.register(), second = machine.register(), third = machine.register()
        #expect(machine.submit(first, "a") == .wakeEngine)
        #expect(machine.submit(second, "b") == .queued, "the engine is woken already")
        #expect(machine.nextTurn(now: t0).admit.map(\.call) == ["a", "b"])
        _ = machine.ended([])
        #expect(machine.cancel(first) == .wakeEngine, "a new turn began: wake it again")
        #expect(machine.cancel(second) == CancelAction.none)
        #expect(machine.submit(third, "c") == .queued)
        let turn = machine.nextTurn(now: t0)
        #expect(turn.cancel == [first, second] && turn.admit.map(\.call) == ["c"])
        _ = machine.ended([first, second])
        let fourth = machine.register()
        #expect(machine.submit(fourth, "d") == .wakeEngine)
        let wakes = machine.beginShutdown(deadline: t0 + .seconds(5))
        #expect(wakes, "a shutdown always wakes it")
    }

    @Test("cancelled before submission: the submission fails as cancelled (not sent) and nothing is queued")
    func cancelBeforeSubmit() {
        var machine = Machine(maxActive: 1)
        let id = machine.register()
        #expect(machine.cancel(id) == CancelAction.none)
        #expect(machine.phase(of: id) == .cancelledEarly)
        #expect(machine.cancel(id) == CancelAction.none, "twice is once")
        #expect(machine.submit(id, "a") == .fail("a", .cancelled))
        #expect(machine.counts == (active: 0, queued: 0, tracked: 0))
    }

    @Test("cancelled while queued: fails at once as cancelled (not sent); the others keep their order")
    func cancelQueued() {
        var machine = Machine(maxActive: 1)
        let ids = submitCalls(3, to: &machine)
        _ = machine.nextTurn(now: t0)
        #expect(machine.cancel(ids[1]) == .fail("call 1", .cancelled))
        #expect(machine.phase(of: ids[1]) == nil && machine.counts == (active: 1, queued: 1, tracked: 2))
        #expect(machine.cancel(ids[1]) == CancelAction.none)
        _ = machine.ended([ids[0]])
        #expect(machine.nextTurn(now: t0).admit.map(\.call) == ["call 2"])
    }

    @Test("cancelled while active: the engine is woken, the next turn takes it off the multi handle without waiting, a late cancel finds nothing")
    func cancelActive() {
        var machine = Machine(maxActive: 1)
        let id = machine.register()
        _ = machine.submit(id, "a")
        _ = machine.nextTurn(now: t0)
        _ = machine.ended([])
        #expect(machine.cancel(id) == .wakeEngine)
        let turn = machine.nextTurn(now: t0)
        #expect(turn.cancel == [id] && turn.maxWaitMs == 0)
        #expect(machine.phase(of: id) == .active, "still counted until the engine reports it ended")
        #expect(machine.ended([id]) == .init(inFlight: 0, queued: 0))
        #expect(machine.cancel(id) == CancelAction.none)
        #expect(machine.nextTurn(now: t0).cancel.isEmpty)
    }

    @Test("shutdown with grace: new calls are refused (not sent), queued and active ones run, the thread exits once both are done")
    func gracefulShutdown() {
        var machine = Machine(maxActive: 1)
        let first = machine.register()
        _ = machine.submit(first, "first")
        let second = machine.register()
        _ = machine.submit(second, "second")
        let late = machine.register()  // registered before, submitted after the shutdown began
        _ = machine.nextTurn(now: t0)

        #expect(machine.beginShutdown(deadline: t0 + .seconds(5)) == true)
        #expect(machine.lifecycle == .draining(deadline: t0 + .seconds(5)))
        #expect(machine.beginShutdown(deadline: t0 + .seconds(9)) == false, "a later deadline cannot lengthen the grace")
        #expect(machine.submit(late, "late") == .fail("late", .shutdown))
        let fresh = machine.register()
        #expect(machine.submit(fresh, "fresh") == .fail("fresh", .shutdown))

        _ = machine.ended([])
        var turn = machine.nextTurn(now: t0 + .milliseconds(4_700))
        #expect(!turn.exit && turn.admit.isEmpty)
        #expect(turn.maxWaitMs == 301, "waits no longer than the grace left (rounded up)")
        _ = machine.ended([first])
        turn = machine.nextTurn(now: t0 + .milliseconds(4_800))
        #expect(turn.admit.map(\.call) == ["second"] && !turn.exit, "a queued call still starts during the grace period")
        _ = machine.ended([second])
        turn = machine.nextTurn(now: t0 + .milliseconds(4_900))
        #expect(turn.exit && !turn.abortActive && turn.expire.isEmpty)
        #expect(machine.lifecycle == .stopped)
        #expect(machine.beginShutdown(deadline: t0) == false)
    }

    @Test("the grace period ends: queued calls expire as shutdown (not sent), active ones are aborted, and the thread exits in that turn")
    func graceEnds() {
        var machine = Machine(maxActive: 1)
        let running = machine.register()
        _ = machine.submit(running, "running")
        let queued = machine.register()
        _ = machine.submit(queued, "queued")
        _ = machine.nextTurn(now: t0)
        _ = machine.ended([])
        #expect(machine.cancel(running) == .wakeEngine)

        #expect(machine.beginShutdown(deadline: t0 + .seconds(1)) == true)
        #expect(machine.beginShutdown(deadline: t0) == true, "an earlier deadline shortens it")
        let turn = machine.nextTurn(now: t0)
        #expect(turn.expire == ["queued"] && turn.abortActive && turn.exit)
        #expect(turn.admit.isEmpty, "nothing starts once the deadline has passed")
        #expect(turn.cancel == [running], "the cancellation still reaches the engine; whichever ends it first wins")
        #expect(machine.lifecycle == .stopped)
        #expect(machine.phase(of: queued) == nil)
        #expect(machine.ended([running]) == .init(inFlight: 0, queued: 0))
        #expect(machine.counts == (active: 0, queued: 0, tracked: 0))
        #expect(machine.cancel(running) == CancelAction.none)
    }

    @Test("stopped: a cancel of a call still marked active does not wake the engine (its descriptors may be closed)")
    func cancelAfterStop() {
        var machine = Machine(maxActive: 1)
        let id = machine.register()
        _ = machine.submit(id, "a")
        _ = machine.nextTurn(now: t0)
        _ = machine.beginShutdown(deadline: t0)
        #expect(machine.nextTurn(now: t0).exit)
        #expect(machine.cancel(id) == CancelAction.none)
    }

    @Test("an idle engine shuts down at once: the first turn after beginShutdown exits")
    func idleShutdown() {
        var machine = Machine(maxActive: 4)
        _ = machine.beginShutdown(deadline: t0 + .seconds(5))
        let turn = machine.nextTurn(now: t0)
        #expect(turn.exit && !turn.abortActive && machine.lifecycle == .stopped)
    }

    @Test("the engine could not start: every submission fails as such, not sent")
    func startFailed() {
        var machine = Machine(maxActive: 4)
        let id = machine.register()
        machine.failedToStart()
        #expect(machine.startFailed && machine.lifecycle == .stopped)
        #expect(machine.submit(id, "a") == .fail("a", .startFailed))
        #expect(machine.beginShutdown(deadline: t0) == false)
    }

    @Test("the first turn does not wait; later idle turns wait up to a second")
    func waits() {
        var machine = Machine(maxActive: 4)
        #expect(machine.nextTurn(now: t0).maxWaitMs == 0)
        _ = machine.ended([])
        #expect(machine.nextTurn(now: t0).maxWaitMs == 1_000)
    }

    @Test("transfers reported ended more than once in a turn: each report frees slots, and a queued call is admitted next turn without a wait")
    func endedTwiceInATurn() {
        var machine = Machine(maxActive: 2)
        let ids = submitCalls(3, to: &machine)
        #expect(machine.nextTurn(now: t0).admit.map(\.call) == ["call 0", "call 1"])
        _ = machine.ended([])
        #expect(machine.nextTurn(now: t0).maxWaitMs == Machine.idleWaitMs, "both slots taken: wait for curl")
        // The engine answers a caller as soon as its transfer ends, then reports the turn's end.
        #expect(machine.ended([ids[0]]) == .init(inFlight: 1, queued: 1))
        #expect(machine.ended([]) == nil)
        let next = machine.nextTurn(now: t0)
        #expect(next.admit.map(\.call) == ["call 2"] && next.maxWaitMs == 0)
        #expect(machine.ended([ids[1]]) == .init(inFlight: 1, queued: 0))
        _ = machine.ended([])
        #expect(machine.nextTurn(now: t0).maxWaitMs == Machine.idleWaitMs, "nothing waits: the next turn may sleep")
    }

    /// Registers and submits `count` calls named "call 0", "call 1", …; returns their ids in order.
    private func submitCalls(_ count: Int, to machine: inout Machine) -> [UInt64] {
        (0..<count).map { index in
            let id = machine.register()
            _ = machine.submit(id, "call \(index)")
            return id
        }
    }

    typealias CancelAction = Machine.CancelAction
}
