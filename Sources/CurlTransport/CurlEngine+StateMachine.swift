import DedicatedThreads

/// The curl engine's calls and lifecycle as a value: it takes events (a call registered,
/// submitted or cancelled, a shutdown, the engine thread's turn starting and ending) with the time
/// they happen, and says what to do. No lock, no clock, no libcurl: ``CurlEngine`` runs it under
/// its mutex and performs the actions, so every transition is tested synchronously.
///
/// A call's phases: `registered` (an id, no request yet) → `queued` (waiting for one of
/// `maxActive` slots, FIFO) → `active` (on the multi handle) → gone, when it completes or fails.
/// Cancelled while `registered` it becomes `cancelledEarly` and fails when submitted; cancelled
/// while queued it fails at once; cancelled while active the engine takes it off the multi handle.
///
/// Delivery: a call failed here, before libcurl had it (``Refusal``), was never sent. A call that
/// was `active` and is ended by the engine (cancelled, aborted at the shutdown deadline, given up
/// by the watchdog) gets its verdict from curl's timings (`CurlTransferFacts`), read by the owner.
///
/// Lifecycle: `running` → `draining(deadline)` (``beginShutdown(deadline:)``: new calls are
/// refused, queued and active ones get until the deadline; then the queued fail as `shutdown`,
/// not sent, and the active are aborted) → `stopped`, set by the turn that tells the engine
/// thread to exit, once nothing is queued or active.
///
/// `Call` is what a caller hands over (the engine's `Submission`: request and continuation);
/// the tests use plain values.
struct CurlEngineStateMachine<Call> {
    enum Lifecycle: Equatable {
        case running
        case draining(deadline: ContinuousClock.Instant)
        case stopped
    }

    enum Phase: Equatable {
        /// `send` allocated an id but has not handed the request over yet.
        case registered
        /// Cancelled in the `registered` phase; ``submit(_:_:)`` fails it instead of queueing it.
        case cancelledEarly
        case queued
        /// On the multi handle (or being put there in this turn).
        case active
    }

    /// Why a call fails without having reached libcurl: it was not sent.
    enum Refusal: Equatable {
        /// The caller's task was cancelled before the transfer started.
        case cancelled
        /// The engine is shutting down or stopped, or the grace period ended while it was queued.
        case shutdown
        /// libcurl or the engine thread could not be set up.
        case startFailed
    }

    enum SubmitAction {
        /// Queued: wake the engine thread.
        case wakeEngine
        /// Queued; the engine thread is already woken and its next turn takes it.
        case queued
        /// Fail the call at once.
        case fail(Call, Refusal)
    }

    enum CancelAction {
        /// Unknown, finished or already cancelled, or noted for an engine turn that is already
        /// woken: nothing to do.
        case none
        /// It was queued: fail it at once.
        case fail(Call, Refusal)
        /// It is on the multi handle: wake the engine thread, whose next turn takes it off.
        case wakeEngine
    }

    /// What the engine thread does in one turn.
    struct Turn {
        /// Start these transfers (they are `active` already, and count against `maxActive`).
        var admit: [(id: UInt64, call: Call)] = []
        /// Take these transfers off the multi handle, failed as cancelled (ids no longer on the
        /// handle are skipped).
        var cancel: [UInt64] = []
        /// Calls still queued when the shutdown deadline passed: fail as ``Refusal/shutdown``.
        var expire: [Call] = []
        /// The shutdown deadline passed: fail every transfer still on the multi handle as `shutdown`.
        var abortActive = false
        /// Perform this turn's actions without letting curl run, then exit the thread.
        var exit = false
        /// How long the thread may wait for sockets and curl's timer (0: not at all).
        var maxWaitMs: Int32 = 0
    }

    /// The transfer gauges, reported only when they change.
    struct Gauges: Equatable {
        var inFlight: Int
        var queued: Int
    }

    /// The longest wait of an idle turn.
    static var idleWaitMs: Int32 { 1_000 }

    /// Transfers on the wire at once (`maxConcurrentTransfers`).
    let maxActive: Int
    private(set) var lifecycle = Lifecycle.running
    private(set) var startFailed = false
    private var nextID: UInt64 = 0
    private var phases: [UInt64: Phase] = [:]
    private var queue = FIFO<(id: UInt64, call: Call)>()
    private(set) var activeCount = 0
    private var cancelRequests: [UInt64] = []
    /// The next turn starts without waiting: the first one, and one after transfers finished
    /// while calls wait for their slots.
    private var skipNextWait = true
    /// A wake-up was asked for since the engine thread's last turn began. The thread reads
    /// everything queued when its next turn begins, so further calls need not wake it again: one
    /// eventfd write per turn instead of one per call, each made just after this machine's lock
    /// is released.
    private var wakePending = false
    private var reported: Gauges?

    init(maxActive: Int) {
        self.maxActive = max(1, maxActive)
    }

    /// For tests and logs: transfers on the wire, calls queued, and ids tracked at all.
    var counts: (active: Int, queued: Int, tracked: Int) { (activeCount, queue.count, phases.count) }

    /// The phase of call `id`; `nil` once it is finished (or was never registered).
    func phase(of id: UInt64) -> Phase? { phases[id] }

    // MARK: Callers

    /// `send` begins: a new id, to be submitted exactly once.
    mutating func register() -> UInt64 {
        nextID += 1
        phases[nextID] = .registered
        return nextID
    }

    /// `send` hands the request over.
    mutating func submit(_ id: UInt64, _ call: Call) -> SubmitAction {
        let phase = phases.removeValue(forKey: id)
        if case .cancelledEarly = phase { return .fail(call, .cancelled) }
        if startFailed { return .fail(call, .startFailed) }
        guard case .running = lifecycle else { return .fail(call, .shutdown) }
        phases[id] = .queued
        queue.append((id, call))
        return wake() ? .wakeEngine : .queued
    }

    /// Whether the caller must wake the engine thread: only the first request since its turn began.
    private mutating func wake() -> Bool {
        defer { wakePending = true }
        return !wakePending
    }

    /// The caller's task was cancelled.
    mutating func cancel(_ id: UInt64) -> CancelAction {
        switch phases[id] {
        case .none, .cancelledEarly:
            return .none
        case .registered:
            phases[id] = .cancelledEarly
            return .none
        case .queued:
            phases[id] = nil
            guard let removed = queue.removeFirst(where: { $0.id == id }) else { return .none }
            return .fail(removed.call, .cancelled)
        case .active:
            if case .stopped = lifecycle { return .none }
            cancelRequests.append(id)
            return wake() ? .wakeEngine : .none
        }
    }

    /// Stop accepting calls; queued and active ones get until `deadline`. A later deadline than
    /// the current one changes nothing (calling again can only shorten the grace period).
    /// `true` when the engine thread must be woken.
    mutating func beginShutdown(deadline: ContinuousClock.Instant) -> Bool {
        switch lifecycle {
        case .stopped:
            return false
        case .draining(let current) where current <= deadline:
            return false
        case .running, .draining:
            lifecycle = .draining(deadline: deadline)
            wakePending = true
            return true
        }
    }

    /// libcurl or the engine thread could not be set up: every call fails as an internal error.
    mutating func failedToStart() {
        lifecycle = .stopped
        startFailed = true
    }

    // MARK: The engine thread

    /// A turn begins at `now`: what to start, cancel, expire and abort, how long to wait, and
    /// whether to exit.
    mutating func nextTurn(now: ContinuousClock.Instant) -> Turn {
        // From here on a call queued or cancelled needs a new wake-up: this turn may already be past it.
        wakePending = false
        var turn = Turn()
        var waitMs = Self.idleWaitMs
        var draining = false
        if case .draining(let deadline) = lifecycle {
            draining = true
            if now >= deadline {
                turn.abortActive = true
                turn.expire = queue.removeAll().map { queued in
                    phases[queued.id] = nil
                    return queued.call
                }
            } else {
                let left = (deadline - now).components
                let leftMs = left.seconds * 1_000 + left.attoseconds / 1_000_000_000_000_000 + 1
                waitMs = Int32(min(Int64(waitMs), leftMs))
            }
        }
        while !turn.abortActive, activeCount < maxActive, let next = queue.popFirst() {
            phases[next.id] = .active
            activeCount += 1
            turn.admit.append(next)
        }
        turn.cancel = cancelRequests
        cancelRequests.removeAll()
        if draining && queue.isEmpty && (activeCount == 0 || turn.abortActive) {
            turn.exit = true
            lifecycle = .stopped
        }
        // New transfers start in this same turn (adding a handle sets curl's timer to "now"),
        // and a cancellation is acted on at once: neither waits.
        turn.maxWaitMs = turn.admit.isEmpty && turn.cancel.isEmpty && !skipNextWait ? waitMs : 0
        skipNextWait = false
        return turn
    }

    /// Transfers ended, however they ended (they are forgotten, so a late cancellation finds
    /// nothing). The engine reports them when it answers their callers, which can be more than
    /// once per turn (``CurlEngine/runLoop()``), and once at every turn's end, `finished` then
    /// possibly empty. Returns the gauges when they changed: record them before answering the
    /// callers, so a caller never sees its own call in flight.
    mutating func ended(_ finished: [UInt64]) -> Gauges? {
        for id in finished where phases.removeValue(forKey: id) != nil {
            activeCount -= 1
        }
        // Slots just freed up and calls are waiting: admit them without sleeping first.
        if !finished.isEmpty && !queue.isEmpty { skipNextWait = true }
        let gauges = Gauges(inFlight: activeCount, queued: queue.count)
        guard gauges != reported else { return nil }
        reported = gauges
        return gauges
    }
}

extension CurlEngineStateMachine.SubmitAction: Equatable where Call: Equatable {}
extension CurlEngineStateMachine.CancelAction: Equatable where Call: Equatable {}
