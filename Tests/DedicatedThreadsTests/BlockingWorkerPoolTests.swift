@testable import DedicatedThreads
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing

/// The pool with real threads. Synchronised with semaphores and awaited results only: no sleeps,
/// no assertion about how long anything took. A bounded semaphore wait turns a hang into a failure.
@Suite("DedicatedThreads: worker pool")
struct BlockingWorkerPoolTests {
    @Test("one thread runs the jobs in the order they were submitted, and an awaited job answers its task")
    func order() async throws {
        let events = Events()
        let pool = try Self.pool(threads: 1, events: events)
        for value in 0..<200 { pool.submit(.note("\(value)")) }
        let answer = await pool.perform { .answer(7, $0) }
        #expect(answer == "7 on pg-wpool-0")
        #expect(events.notes == (0..<200).map { "\($0)" })
        pool.drain()
        await pool.waitUntilStopped()
    }

    @Test("several threads: every job runs once, on the pool's named threads, and each worker is made on its own thread")
    func namedThreads() async throws {
        let events = Events()
        let pool = try Self.pool(threads: 3, events: events)
        #expect(pool.threadNames == ["pg-wpool-0", "pg-wpool-1", "pg-wpool-2"])
        let answers = await withTaskGroup(of: String.self) { group in
            for value in 0..<60 { group.addTask { await pool.perform { .answer(value, $0) } } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(answers.count == 60)
        let values = answers.compactMap { Int($0.split(separator: " ").first!) }
        #expect(values.sorted() == Array(0..<60))
        #expect(Set(answers.map { String($0.split(separator: " ").last!) }).isSubset(of: pool.threadNames))
        #expect(events.madeOn.sorted() == ["0 on pg-wpool-0", "1 on pg-wpool-1", "2 on pg-wpool-2"])
        pool.stop()
        await pool.waitUntilStopped()
        #expect(events.finished == 3)
    }

    @Test("drain while busy: the job in hand and everything queued (even submitted while draining) run, then the threads exit; later jobs are rejected")
    func drainWhileBusy() async throws {
        let events = Events()
        let pool = try Self.pool(threads: 1, events: events)
        let gate = Gate()
        pool.submit(.block(gate))
        #expect(gate.waitUntilEntered())
        for value in 0..<5 { pool.submit(.note("\(value)")) }
        pool.drain()
        #expect(pool.submit(.note("while draining")))
        gate.open()
        await pool.waitUntilStopped()
        #expect(pool.isStopped)
        #expect(events.notes == ["blocked", "0", "1", "2", "3", "4", "while draining"])
        #expect(events.finished == 1)
        #expect(!pool.submit(.note("late")))
        #expect(events.rejected == ["late"])
        #expect(await pool.perform { .answer(1, $0) } == "rejected 1")
    }

    @Test("stop while busy: the job in hand completes, queued jobs are rejected (their tasks answered), and the threads exit")
    func stopWhileBusy() async throws {
        let events = Events()
        let pool = try Self.pool(threads: 2, events: events)
        let gates = [Gate(), Gate()]
        for gate in gates { pool.submit(.block(gate)) }
        #expect(gates.allSatisfy { $0.waitUntilEntered() })
        // Both threads are held: these stay queued.
        for value in 0..<3 { pool.submit(.note("queued \(value)")) }
        #expect(pool.queuedCount == 3)
        // Tasks awaiting answers: queued or refused at once, either way they are answered.
        let (submitted, submission) = AsyncStream.makeStream(of: Void.self)
        let waiting = (0..<4).map { value in
            Task {
                await pool.perform { continuation in
                    submission.yield()
                    return .answer(value, continuation)
                }
            }
        }
        var count = 0
        for await _ in submitted {
            count += 1
            if count == 4 { break }
        }
        pool.stop()
        #expect(events.rejected == ["queued 0", "queued 1", "queued 2"])
        for gate in gates { gate.open() }
        var answers: [String] = []
        for task in waiting { answers.append(await task.value) }
        #expect(answers == (0..<4).map { "rejected \($0)" })
        await pool.waitUntilStopped()
        #expect(events.notes == ["blocked", "blocked"])
        #expect(events.finished == 2)
        pool.stop()  // idempotent
        pool.drain()
        await pool.waitUntilStopped()
    }

    @Test("a worker with work of its own keeps a draining pool alive: idle runs at its deadline until it says it is done")
    func drainWaitsForTheWorker() async throws {
        let events = Events()
        let pool = try BlockingWorkerPool<TestWorker>(
            threads: 1, name: { "pg-wpool-\($0)" }, reject: { events.reject($0) },
            makeWorker: { _ in TestWorker(events: events, unfinishedDrainingIdles: 3) })
        pool.submit(.note("a"))
        pool.drain()
        await pool.waitUntilStopped()
        #expect(events.notes == ["a"])
        // Three unfinished passes (each due at once), then the one that finished.
        #expect(events.drainingIdles == 4)
        #expect(events.finished == 1)
    }

    @Test("as a Service: a ServiceGroup's graceful shutdown drains the pool; cancellation stops it")
    func asService() async throws {
        let events = Events()
        let pool = try Self.pool(threads: 2, events: events)
        let group = ServiceGroup(configuration: .init(services: [pool], logger: Logger(label: "pool-test")))
        let running = Task { try await group.run() }
        let gate = Gate()
        pool.submit(.block(gate))
        #expect(gate.waitUntilEntered())
        pool.submit(.note("queued"))
        await group.triggerGracefulShutdown()
        gate.open()
        try await running.value
        #expect(pool.isStopped && events.notes.sorted() == ["blocked", "queued"] && events.finished == 2)

        let cancelled = try Self.pool(threads: 1, events: Events())
        let runner = Task { try await cancelled.run() }
        runner.cancel()
        try await runner.value
        #expect(cancelled.isStopped)
    }

    @Test("lingering after work: deferrable jobs wait for the thread's own wake-up, a plain job takes them along at once")
    func deferrableJobsShareTheNextTake() async throws {
        let events = Events()
        // A linger far longer than the test: only a signal can make the thread take a job early.
        let pool = try Self.pool(threads: 1, events: events, lingerAfterWork: .seconds(60))
        // Never worked yet, so asleep without a deadline: a deferrable job wakes it.
        pool.submit(.note("first"), deferrable: true)
        #expect(await pool.perform { .answer(0, $0) } == "0 on pg-wpool-0")
        #expect(events.notes == ["first"])
        // It has just worked and goes to linger (the answer above was sent just before).
        var lingering = false
        for _ in 0..<1_000 where !lingering {
            lingering = pool.lingeringCount == 1
            if !lingering { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(lingering)
        // Lingering: these wake nobody and wait.
        for value in 1...3 { pool.submit(.note("\(value)"), deferrable: true) }
        #expect(pool.queuedCount == 3)
        #expect(events.notes == ["first"])
        // A plain job wakes it; it takes the waiting ones with it, in order.
        #expect(await pool.perform { .answer(4, $0) } == "4 on pg-wpool-0")
        #expect(events.notes == ["first", "1", "2", "3"])
        // Draining does not wait out the linger either.
        pool.submit(.note("last"), deferrable: true)
        pool.drain()
        await pool.waitUntilStopped()
        #expect(events.notes.last == "last")
    }

    // MARK: Support

    static func pool(threads: Int, events: Events, lingerAfterWork: Duration? = nil) throws -> BlockingWorkerPool<TestWorker> {
        try BlockingWorkerPool<TestWorker>(
            threads: threads, name: { "pg-wpool-\($0)" }, lingerAfterWork: lingerAfterWork, reject: { events.reject($0) },
            makeWorker: { index in
                events.made("\(index) on \(currentThreadName())")
                return TestWorker(events: events)
            })
    }

}

enum TestJob: Sendable {
    case note(String)
    case answer(Int, CheckedContinuation<String, Never>)
    case block(Gate)
}

/// Runs on a pool thread: notes what it did into `events`.
struct TestWorker: BlockingWorker {
    let events: Events
    var unfinishedDrainingIdles = 0
    var sawDraining = false
    var finishedDraining = false

    mutating func perform(_ job: TestJob) {
        switch job {
        case .note(let text): events.note(text)
        case .answer(let value, let continuation): continuation.resume(returning: "\(value) on \(currentThreadName())")
        case .block(let gate):
            events.note("blocked")
            gate.enterAndWait()
        }
    }

    mutating func idle(draining: Bool) -> Bool {
        guard draining else { return true }
        sawDraining = true
        events.idledDraining()
        guard unfinishedDrainingIdles == 0 else {
            unfinishedDrainingIdles -= 1
            return false
        }
        finishedDraining = true
        return true
    }

    /// Due at once while draining with unfinished work: the pool comes back without sleeping.
    var wakeUpAt: ContinuousClock.Instant? { sawDraining && !finishedDraining ? .now : nil }

    mutating func finish() { events.finish() }
}

/// What the workers and the reject handler saw.
final class Events: Sendable {
    private struct State {
        var notes: [String] = []
        var madeOn: [String] = []
        var rejected: [String] = []
        var finished = 0
        var drainingIdles = 0
    }

    private let state = Mutex(State())

    var notes: [String] { state.withLock { $0.notes } }
    var madeOn: [String] { state.withLock { $0.madeOn } }
    var rejected: [String] { state.withLock { $0.rejected } }
    var finished: Int { state.withLock { $0.finished } }
    var drainingIdles: Int { state.withLock { $0.drainingIdles } }

    func note(_ text: String) { state.withLock { $0.notes.append(text) } }
    func made(_ text: String) { state.withLock { $0.madeOn.append(text) } }
    func finish() { state.withLock { $0.finished += 1 } }
    func idledDraining() { state.withLock { $0.drainingIdles += 1 } }

    func reject(_ job: TestJob) {
        switch job {
        case .note(let text): state.withLock { $0.rejected.append(text) }
        case .answer(let value, let continuation): continuation.resume(returning: "rejected \(value)")
        case .block: break
        }
    }
}

/// Holds a pool thread inside a job until the test opens it.
final class Gate: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)

    /// On the pool thread.
    func enterAndWait() {
        entered.signal()
        opened.wait()
    }

    /// Whether a thread entered within 10 s (a bound against hanging, not a timing assertion).
    func waitUntilEntered() -> Bool {
        entered.wait(timeout: .now() + 10) == .success
    }

    func open() { opened.signal() }
}

/// The calling thread's name, from /proc.
func currentThreadName() -> String {
    let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    return comm.trimmingCharacters(in: .newlines)
}
