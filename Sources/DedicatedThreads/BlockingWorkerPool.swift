import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one blocking-worker primitive: `threads` named dedicated OS threads (``DedicatedThread``),
/// each with its own ``BlockingWorker``, taking jobs from one FIFO queue. Work that blocks (hiredis
/// calls, `write`/`fsync`) runs there, never on Swift's cooperative pool.
///
/// - Submit: ``submit(_:)`` queues a job and returns at once; ``perform(_:)`` builds a job around a
///   continuation, queues it and suspends until the worker resumes it (the calling task never
///   blocks a thread). A job the pool will never run (submitted once it stops, or queued when
///   ``stop()`` came) goes to `reject`, on the thread that caused it, outside the lock.
/// - Lifecycle: ``drain()`` runs everything queued (jobs submitted meanwhile too), lets each
///   worker finish its own work (``BlockingWorker/idle(draining:)``), then the threads exit;
///   ``stop()`` rejects the queued jobs and the threads exit after the job in hand.
///   ``waitUntilStopped()`` returns once every thread has exited (``ExitLatch``).
/// - As a `Service`: ``run()`` drains on graceful shutdown and stops on cancellation.
///
/// The queue and lifecycle are a value, ``BlockingWorkerPoolStateMachine``, kept under a pthread
/// mutex with a condition variable (the threads sleep on it; a timed wait honours the worker's
/// ``BlockingWorker/wakeUpAt`` on the monotonic clock). Each thread's closure keeps the pool
/// alive, so an owner that goes away must ``drain()`` or ``stop()`` it.
///
/// `@unchecked Sendable`: `machine` is only touched with `mutex` held; `mutex` and `condition`
/// are allocated once and freed in `deinit`, which runs after every thread has exited.
public final class BlockingWorkerPool<Worker: BlockingWorker>: Service, @unchecked Sendable {
    public typealias Job = Worker.Job
    typealias StateMachine = BlockingWorkerPoolStateMachine<Job>

    /// The threads' names, in order.
    public let threadNames: [String]
    private let maxJobsPerTake: Int
    private let lingerAfterWork: Duration?
    private let reject: @Sendable (Job) -> Void
    private let makeWorker: @Sendable (Int) -> Worker
    private let latch: ExitLatch
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var machine: StateMachine

    /// Starts the threads.
    ///
    /// - Parameters:
    ///   - threads: how many (at least 1).
    ///   - name: the name of thread `index` (at most 15 bytes are kept, the kernel's limit).
    ///   - maxJobsPerTake: jobs a thread takes at once before its worker's `idle` (1 spreads
    ///     jobs over the threads; a single writer thread takes everything queued and batches).
    ///   - lingerAfterWork: after a thread has worked, its next wait lasts at most this long and
    ///     deferrable jobs (``submit(_:deferrable:)``) submitted meanwhile do not wake it: it takes
    ///     them together when the wait ends. `nil`: every job wakes a sleeping thread at once.
    ///   - reject: answers a job the pool will never run.
    ///   - makeWorker: called on thread `index` when it starts, before it takes any job.
    /// - Throws: ``BlockingWorkerPoolError`` when the system refuses a thread; those already
    ///   started are stopped.
    public init(
        threads: Int,
        name: (Int) -> String,
        maxJobsPerTake: Int = 1,
        lingerAfterWork: Duration? = nil,
        reject: @escaping @Sendable (Job) -> Void,
        makeWorker: @escaping @Sendable (Int) -> Worker
    ) throws(BlockingWorkerPoolError) {
        let threads = max(1, threads)
        self.threadNames = (0..<threads).map(name)
        self.maxJobsPerTake = max(1, maxJobsPerTake)
        self.lingerAfterWork = lingerAfterWork.flatMap { $0 > .zero ? $0 : nil }
        self.reject = reject
        self.makeWorker = makeWorker
        self.latch = ExitLatch(threads: threads)
        self.machine = StateMachine(threads: threads)
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)

        for index in 0..<threads {
            guard DedicatedThread.start(name: threadNames[index], { [self] in threadMain(index) }) else {
                // This thread and the ones after it will never run; stop the ones before it.
                for _ in index..<threads {
                    locked { machine.threadDidNotStart() }
                    latch.threadExited()
                }
                stop()
                throw BlockingWorkerPoolError(threadName: threadNames[index], index: index, of: threads)
            }
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    // MARK: Callers

    /// Queues `job` for the next free thread and returns at once; `false` when the pool no longer
    /// takes jobs, in which case `reject` has been called with it. A `deferrable` job may wait up
    /// to the pool's `lingerAfterWork` for a thread that has just worked, instead of waking one.
    @discardableResult
    public func submit(_ job: Job, deferrable: Bool = false) -> Bool {
        let action = locked { machine.submit(job, deferrable: deferrable) }
        switch action {
        case .queued(let wakeOne):
            if wakeOne { pthread_cond_signal(condition) }
            return true
        case .rejected(let job):
            reject(job)
            return false
        }
    }

    /// Queues the job `makeJob` builds around a continuation, and returns what the worker (or
    /// `reject`) resumes that continuation with. Suspends the task; never blocks its thread.
    public func perform<Value>(_ makeJob: (CheckedContinuation<Value, Never>) -> Job) async -> Value {
        await withCheckedContinuation { continuation in
            submit(makeJob(continuation))
        }
    }

    /// Graceful stop: runs what is queued, lets each worker finish, then the threads exit. Jobs
    /// submitted meanwhile still run. Does not wait; see ``waitUntilStopped()``.
    public func drain() {
        if locked({ machine.drain() }) { pthread_cond_broadcast(condition) }
    }

    /// Immediate stop: queued jobs go to `reject`, later ones too, and each thread exits after the
    /// job in hand. Does not wait; see ``waitUntilStopped()``.
    public func stop() {
        let (abandoned, wakeAll) = locked { machine.stop() }
        if wakeAll { pthread_cond_broadcast(condition) }
        for job in abandoned { reject(job) }
    }

    /// Returns once every thread has exited (after its worker's `finish()`).
    public func waitUntilStopped() async {
        await latch.wait()
    }

    /// Whether every thread has exited.
    public var isStopped: Bool { latch.isOpen }

    /// Jobs waiting for a thread.
    public var queuedCount: Int { locked { machine.queuedCount } }

    /// Threads lingering after work (deferrable jobs do not wake them).
    var lingeringCount: Int { locked { machine.lingering } }

    /// Runs until the service group shuts down gracefully (then ``drain()``) or the task is
    /// cancelled (then ``stop()``), and returns once every thread has exited.
    public func run() async throws {
        await latch.runService(onGracefulShutdown: { self.drain() }, onCancellation: { self.stop() })
    }

    // MARK: Threads

    private func threadMain(_ index: Int) {
        var worker = makeWorker(index)
        var progress = StateMachine.WorkerProgress.notDrainedYet
        var afterWait = false
        var justWorked = false
        while true {
            let step = nextStep(progress: progress, afterWait: afterWait, wakeUpAt: worker.wakeUpAt, linger: justWorked)
            afterWait = false
            justWorked = false
            switch step {
            case .perform(let jobs, let draining):
                for job in jobs { worker.perform(job) }
                progress = Self.progress(worker.idle(draining: draining), draining: draining)
                justWorked = true
            case .idle(let draining):
                progress = Self.progress(worker.idle(draining: draining), draining: draining)
            case .wait:
                afterWait = true
            case .exit:
                worker.finish()
                latch.threadExited()
                return
            }
        }
    }

    /// The state machine's next step for a thread; sleeps (the lock released) while it says
    /// `wait`, and returns `.wait` only after sleeping, so the caller asks again with `afterWait`.
    /// `linger`: the thread has just worked, so it waits at most `lingerAfterWork` (if set).
    private func nextStep(
        progress: StateMachine.WorkerProgress, afterWait: Bool, wakeUpAt: ContinuousClock.Instant?, linger: Bool
    ) -> StateMachine.Step {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let step = machine.next(maxJobs: maxJobsPerTake, progress: progress, afterWait: afterWait)
        guard case .wait = step else { return step }
        let now = ContinuousClock.now
        let lingerUntil = linger ? lingerAfterWork.map { now + $0 } : nil
        if let until = [wakeUpAt, lingerUntil].compactMap({ $0 }).min() {
            let left = until - now
            // The deadline has passed: come back at once, as if woken by it.
            guard left > .zero else { return .wait }
            let lingering = lingerUntil != nil
            machine.willWait(lingering: lingering)
            timedWait(left)
            machine.didWake(lingering: lingering)
        } else {
            machine.willWait()
            pthread_cond_wait(condition, mutex)
            machine.didWake()
        }
        return .wait
    }

    /// Waits on the condition (mutex held) for at most `duration`.
    private func timedWait(_ duration: Duration) {
        let parts = duration.components
        let nanoseconds = parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
        #if canImport(Darwin)
        // Darwin has no monotonic condition clock: wait relative to now.
        var time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        pthread_cond_timedwait_relative_np(condition, mutex, &time)
        #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) + nanoseconds
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &time)
        #endif
    }

    private static func progress(_ finished: Bool, draining: Bool) -> StateMachine.WorkerProgress {
        guard draining else { return .notDrainedYet }
        return finished ? .drainingFinished : .drainingUnfinished
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The system refused one of a pool's threads.
public struct BlockingWorkerPoolError: Error, Sendable, CustomStringConvertible {
    public let threadName: String
    /// Which thread (0-based) of how many.
    public let index: Int
    public let count: Int

    init(threadName: String, index: Int, of count: Int) {
        self.threadName = threadName
        self.index = index
        self.count = count
    }

    public var description: String {
        "could not start thread \(index + 1) of \(count) ('\(threadName)'): the system refused a new thread"
    }
}
