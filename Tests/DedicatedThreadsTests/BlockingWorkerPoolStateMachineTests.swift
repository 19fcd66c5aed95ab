import Testing

@testable import DedicatedThreads

/// The pool's queue and lifecycle, driven synchronously: no threads, no sleeps.
@Suite("DedicatedThreads: worker pool state machine")
struct BlockingWorkerPoolStateMachineTests {
    typealias Machine = BlockingWorkerPoolStateMachine<Int>

    @Test("running: jobs are queued and taken in order, up to maxJobs at a time; with nothing queued a thread waits, then idles after a wake-up")
    func runningTakesInOrder() {
        var machine = Machine(threads: 1)
        #expect(machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: false) == .wait)
        for job in 1...4 { #expect(machine.submit(job) == .queued(wakeOne: false)) }
        #expect(machine.queuedCount == 4)
        #expect(machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: false) == .perform([1], draining: false))
        #expect(machine.next(maxJobs: 10, progress: .notDrainedYet, afterWait: true) == .perform([2, 3, 4], draining: false))
        #expect(machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: true) == .idle(draining: false))
        #expect(machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: false) == .wait)
        #expect(machine.phase == .running && machine.threads == 1)
    }

    @Test("a job wakes one sleeping thread, and no more signals go out while that wake-up is on its way")
    func wakeUpsAreCounted() {
        var machine = Machine(threads: 3)
        #expect(machine.submit(0) == .queued(wakeOne: false), "nobody sleeps: the threads will look at the queue anyway")
        _ = machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: false)
        machine.willWait()
        machine.willWait()
        #expect(machine.submit(1) == .queued(wakeOne: true))
        #expect(machine.submit(2) == .queued(wakeOne: true))
        #expect(machine.submit(3) == .queued(wakeOne: false), "two sleepers, two wake-ups already sent")
        machine.didWake()
        #expect(machine.sleeping == 1 && machine.wakeupsInFlight == 1)
        machine.didWake()
        #expect(machine.sleeping == 0 && machine.wakeupsInFlight == 0)
        // A timed-out sleeper (nobody signalled it) does not make the count go negative.
        machine.willWait()
        machine.didWake()
        #expect(machine.wakeupsInFlight == 0)
    }

    @Test("a deferrable job wakes nobody while a thread lingers after work; a plain job still does, and so does a deferrable one when no thread lingers")
    func deferrableJobsWaitForALingeringThread() {
        var machine = Machine(threads: 1)
        _ = machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: false)
        machine.willWait(lingering: true)
        #expect(machine.lingering == 1)
        #expect(machine.submit(1, deferrable: true) == .queued(wakeOne: false), "the lingering thread comes back by itself")
        #expect(machine.submit(2, deferrable: true) == .queued(wakeOne: false))
        #expect(machine.submit(3) == .queued(wakeOne: true), "a plain job (a flush) cannot wait")
        machine.didWake(lingering: true)
        #expect(machine.lingering == 0 && machine.sleeping == 0)
        #expect(machine.next(maxJobs: 10, progress: .notDrainedYet, afterWait: true) == .perform([1, 2, 3], draining: false))
        // Asleep without a deadline: a deferrable job must wake it, or it would wait forever.
        machine.willWait()
        #expect(machine.submit(4, deferrable: true) == .queued(wakeOne: true))
    }

    @Test("while draining, a deferrable job wakes a lingering thread: the drain does not wait out the linger")
    func drainingDoesNotDefer() {
        var machine = Machine(threads: 1)
        _ = machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: false)
        machine.willWait(lingering: true)
        let wakeAll = machine.drain()
        #expect(wakeAll)
        machine.didWake(lingering: true)
        machine.willWait(lingering: true)
        #expect(machine.submit(1, deferrable: true) == .queued(wakeOne: true))
    }

    @Test("drain: queued and newly submitted jobs still run, each thread idles once while draining, and exits when its worker has finished")
    func drainRunsEverything() {
        var machine = Machine(threads: 2)
        machine.willWait()
        #expect(machine.submit(1) == .queued(wakeOne: true))
        #expect(machine.drain() == true, "a thread sleeps: broadcast")
        #expect(machine.drain() == false, "a second drain changes nothing")
        #expect(machine.phase == .draining)
        #expect(machine.submit(2) == .queued(wakeOne: false))
        machine.didWake()
        #expect(machine.next(maxJobs: 8, progress: .notDrainedYet, afterWait: true) == .perform([1, 2], draining: true))
        // The other thread had never idled while draining: it must, before it may exit.
        #expect(machine.next(maxJobs: 8, progress: .notDrainedYet, afterWait: false) == .idle(draining: true))
        // Its worker still has work of its own (a retry): it waits for its deadline, then idles again.
        #expect(machine.next(maxJobs: 8, progress: .drainingUnfinished, afterWait: false) == .wait)
        #expect(machine.next(maxJobs: 8, progress: .drainingUnfinished, afterWait: true) == .idle(draining: true))
        #expect(machine.next(maxJobs: 8, progress: .drainingFinished, afterWait: false) == .exit(last: false))
        #expect(machine.phase == .draining && machine.threads == 1)
        #expect(machine.submit(3) == .queued(wakeOne: false), "one thread is left to run it")
        #expect(machine.next(maxJobs: 8, progress: .drainingFinished, afterWait: false) == .perform([3], draining: true))
        #expect(machine.next(maxJobs: 8, progress: .drainingFinished, afterWait: false) == .exit(last: true))
        #expect(machine.phase == .stopped && machine.threads == 0)
        #expect(machine.submit(4) == .rejected(4))
        #expect(machine.drain() == false)
        #expect(machine.stop().abandoned.isEmpty)
    }

    @Test("stop: queued jobs are handed back, new ones rejected, and each thread exits at its next step")
    func stopAbandonsQueued() {
        var machine = Machine(threads: 2)
        for job in 1...3 { _ = machine.submit(job) }
        #expect(machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: false) == .perform([1], draining: false))
        machine.willWait()
        let stop = machine.stop()
        #expect(stop.abandoned == [2, 3] && stop.wakeAll)
        #expect(machine.phase == .stopping)
        #expect(machine.submit(4) == .rejected(4))
        #expect(machine.stop().abandoned.isEmpty && !machine.stop().wakeAll)
        machine.didWake()
        #expect(machine.next(maxJobs: 1, progress: .notDrainedYet, afterWait: true) == .exit(last: false))
        #expect(machine.next(maxJobs: 1, progress: .drainingUnfinished, afterWait: false) == .exit(last: true))
        #expect(machine.phase == .stopped)
    }

    @Test("stop while draining: what is still queued is handed back and the drain ends at once")
    func stopDuringDrain() {
        var machine = Machine(threads: 1)
        _ = machine.drain()
        _ = machine.submit(1)
        let stop = machine.stop()
        #expect(stop.abandoned == [1] && !stop.wakeAll, "nobody sleeps")
        #expect(machine.next(maxJobs: 1, progress: .drainingUnfinished, afterWait: false) == .exit(last: true))
    }

    @Test("threads that never started count as exited; a pool without threads is stopped")
    func threadsThatDidNotStart() {
        var machine = Machine(threads: 2)
        machine.threadDidNotStart()
        #expect(machine.phase == .running && machine.threads == 1)
        machine.threadDidNotStart()
        #expect(machine.phase == .stopped && machine.threads == 0)
        #expect(machine.submit(1) == .rejected(1))
        machine.threadDidNotStart()
        #expect(machine.threads == 0)
        #expect(Machine(threads: 0).phase == .stopped)
    }
}
