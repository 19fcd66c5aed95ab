/// A ``BlockingWorkerPool``'s queue and lifecycle as a value: it takes events (a job submitted, a
/// thread asking for its next step, drain, stop) and says what to do. No lock, no thread, no
/// clock, so every transition is tested synchronously; the pool runs it under its mutex.
///
/// Lifecycle: `running` → `draining` (``drain()``: jobs are still accepted and run; a thread
/// exits once the queue is empty and its worker has finished its own work) or `stopping`
/// (``stop()``: queued jobs are handed back, threads exit after the job in hand) → `stopped` once
/// the last thread has exited. Only `stopped` and `stopping` refuse jobs.
///
/// Wake-ups: a submitted job signals one thread only when more threads sleep than wake-ups are
/// already on their way, so a burst of jobs costs one futex wake, not one per job. A *deferrable*
/// job signals nobody while a thread lingers (a timed wait the pool takes right after work, see
/// ``BlockingWorkerPool``'s `lingerAfterWork`): that thread takes it when its wait ends, so under
/// steady load jobs are taken in batches, one timer wake-up per linger instead of one signal each.
struct BlockingWorkerPoolStateMachine<Job> {
    enum Phase: Sendable, Equatable {
        case running
        case draining
        case stopping
        case stopped
    }

    /// What a thread's worker said the last time it was idle (``BlockingWorker/idle(draining:)``).
    enum WorkerProgress: Sendable, Equatable {
        /// Not idle since draining began (or the pool is not draining).
        case notDrainedYet
        /// Idle while draining, and it still has work of its own (a retry at `wakeUpAt`).
        case drainingUnfinished
        /// Idle while draining, with nothing left of its own: the thread may exit.
        case drainingFinished
    }

    /// What a thread does next.
    enum Step {
        /// Run these jobs, oldest first, then call the worker's `idle(draining:)`.
        case perform([Job], draining: Bool)
        /// Call the worker's `idle(draining:)` (woken by its deadline, a drain, or spuriously).
        case idle(draining: Bool)
        /// Sleep until signalled or until the worker's `wakeUpAt`.
        case wait
        /// Call the worker's `finish()` and exit; `last` when no thread is left.
        case exit(last: Bool)
    }

    /// The answer to ``submit(_:)``.
    enum SubmitAction {
        /// Queued; signal one sleeping thread when `wakeOne`.
        case queued(wakeOne: Bool)
        /// Not accepted (the pool is stopping or stopped): the job goes to the pool's `reject`.
        case rejected(Job)
    }

    private(set) var phase: Phase = .running
    /// Threads that have not exited.
    private(set) var threads: Int
    /// Threads blocked waiting.
    private(set) var sleeping = 0
    /// Signals sent and not yet answered by a waking thread.
    private(set) var wakeupsInFlight = 0
    /// Of the sleeping threads, those lingering: waiting at most the linger time after work.
    private(set) var lingering = 0
    private var queue = FIFO<Job>()

    /// A pool of `threads` threads, running.
    init(threads: Int) {
        self.threads = max(0, threads)
        if self.threads == 0 { phase = .stopped }
    }

    /// Jobs waiting for a thread.
    var queuedCount: Int { queue.count }

    /// A caller submits `job`; a `deferrable` one may wait for a lingering thread's timer.
    mutating func submit(_ job: Job, deferrable: Bool = false) -> SubmitAction {
        switch phase {
        case .stopping, .stopped:
            return .rejected(job)
        case .running, .draining:
            queue.append(job)
            if deferrable, lingering > 0, phase == .running { return .queued(wakeOne: false) }
            guard sleeping > wakeupsInFlight else { return .queued(wakeOne: false) }
            wakeupsInFlight += 1
            return .queued(wakeOne: true)
        }
    }

    /// Graceful stop: run what is queued (and what is still submitted), let every worker finish
    /// its own work, then exit. `true` when the threads must be woken (broadcast).
    mutating func drain() -> Bool {
        guard case .running = phase else { return false }
        phase = .draining
        return wakeAll()
    }

    /// Immediate stop: no more jobs; the queued ones are returned (for the pool's `reject`), and
    /// each thread exits after the job in hand. `wakeAll` when the threads must be woken.
    mutating func stop() -> (abandoned: [Job], wakeAll: Bool) {
        switch phase {
        case .stopping, .stopped:
            return ([], false)
        case .running, .draining:
            phase = .stopping
            return (queue.removeAll(), wakeAll())
        }
    }

    /// A thread asks what to do; `afterWait` when it comes back from ``Step/wait`` (or its
    /// worker's deadline had already passed), `progress` what its worker last said when idle.
    mutating func next(maxJobs: Int, progress: WorkerProgress, afterWait: Bool) -> Step {
        switch phase {
        case .stopping, .stopped:
            return exitThread()
        case .running, .draining:
            let draining = phase == .draining
            if !queue.isEmpty {
                return .perform(queue.popFirst(upTo: max(1, maxJobs)), draining: draining)
            }
            guard draining else { return afterWait ? .idle(draining: false) : .wait }
            switch progress {
            case .drainingFinished: return exitThread()
            case .notDrainedYet: return .idle(draining: true)
            case .drainingUnfinished: return afterWait ? .idle(draining: true) : .wait
            }
        }
    }

    /// A thread is about to block in ``Step/wait``; `lingering` when it waits at most the linger
    /// time because it has just worked.
    mutating func willWait(lingering: Bool = false) {
        sleeping += 1
        if lingering { self.lingering += 1 }
    }

    /// A thread came back from waiting (signalled, timed out or spuriously), with the
    /// `lingering` it went to sleep with.
    mutating func didWake(lingering: Bool = false) {
        sleeping -= 1
        if lingering { self.lingering -= 1 }
        wakeupsInFlight = max(0, wakeupsInFlight - 1)
    }

    /// A thread that was counted could not be started: it will never run.
    mutating func threadDidNotStart() {
        guard threads > 0 else { return }
        threads -= 1
        if threads == 0 { phase = .stopped }
    }

    private mutating func exitThread() -> Step {
        threads -= 1
        if threads == 0 { phase = .stopped }
        return .exit(last: threads == 0)
    }

    private mutating func wakeAll() -> Bool {
        wakeupsInFlight = sleeping
        return sleeping > 0
    }
}

extension BlockingWorkerPoolStateMachine: Sendable where Job: Sendable {}
extension BlockingWorkerPoolStateMachine.Step: Sendable where Job: Sendable {}
extension BlockingWorkerPoolStateMachine.SubmitAction: Sendable where Job: Sendable {}
extension BlockingWorkerPoolStateMachine.Step: Equatable where Job: Equatable {}
extension BlockingWorkerPoolStateMachine.SubmitAction: Equatable where Job: Equatable {}
