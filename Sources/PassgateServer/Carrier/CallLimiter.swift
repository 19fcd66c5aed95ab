import NIOCore
import NIOPosix
import Synchronization

/// At most `limit` carrier calls in flight; the rest wait their turn, first come first served,
/// for at most `maxWait`.
///
/// The wait is bounded because a carrier that slows down would otherwise let requests pile up
/// here without end: each one holding a client connection and its memory, and each answered only
/// after the client has long given up. A caller that gets no slot in time makes no call, so its
/// token is unspent and the client may retry it (`carrier_unavailable`).
///
/// A thin owner of `CallLimiterStateMachine`: it keeps the waiters' continuations and timers,
/// and resumes every continuation after leaving its lock.
///
/// A waiter's time limit is a task scheduled on an event loop, not a `Task` sleeping on Swift's
/// global executor: the queue sheds load when the process is overloaded, and that is when the
/// global executor's queue is longest. A sleeping task's wake-up waits its turn there (seconds,
/// in a saturated test process), so the limit stretched exactly when it mattered; an event loop
/// runs its scheduled tasks on time and costs no task allocation.
final class CallLimiter: Sendable {
    /// Whether the caller may make its call.
    enum Admission: Sendable, Equatable {
        case granted
        /// No slot within `maxWait`: the call must not be made.
        case timedOut
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Admission, Never>
        /// Set right after the waiter is queued; cancelled when a slot comes first.
        var timer: Scheduled<Void>?
    }

    private struct State {
        var machine: CallLimiterStateMachine
        var waiters: [UInt64: Waiter] = [:]
    }

    let maxWait: Duration
    /// Calls in flight at most.
    let limit: Int
    /// Where the waiters' time limits run.
    private let timers: any EventLoopGroup
    // `Mutex`: every critical section is one state-machine event and a dictionary operation.
    private let state: Mutex<State>
    /// Told the number of waiters whenever it changes, inside the lock so that values arrive in
    /// order (a gauge). Called only when calls queue, never on the uncontended path.
    private let waitingChanged: @Sendable (Int) -> Void

    /// - Parameter timers: where a waiter's time limit runs; the runtime passes its own event loops.
    init(
        limit: Int, maxWait: Duration, timers: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        waitingChanged: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.maxWait = maxWait
        self.limit = max(0, limit)
        self.timers = timers
        self.waitingChanged = waitingChanged
        state = Mutex(State(machine: CallLimiterStateMachine(limit: limit)))
    }

    /// Callers waiting for a slot now.
    var waiting: Int { state.withLock { $0.machine.waitingCount } }

    /// Calls in flight and callers waiting now, for the console (the cap is `limit`).
    var use: (inFlight: Int, waiting: Int) {
        state.withLock { (limit - $0.machine.available, $0.machine.waitingCount) }
    }

    /// Takes a slot, waiting at most `maxWait` for one; after `.granted`, call `release()` once
    /// the call is over.
    func acquire() async -> Admission {
        // The common case takes a slot without suspending: a continuation resumed at once would
        // still cost the task a trip through the executor queue and often a thread wake-up.
        let mayWait = maxWait > .zero
        let first = state.withLock { $0.machine.acquire(mayWait: false) }
        if first == .granted { return .granted }
        guard mayWait else { return .timedOut }
        return await withCheckedContinuation { continuation in
            let action = state.withLock { state -> CallLimiterStateMachine.AcquireAction in
                let action = state.machine.acquire(mayWait: true)
                if case .wait(let ticket) = action {
                    state.waiters[ticket] = Waiter(continuation: continuation)
                    waitingChanged(state.machine.waitingCount)
                }
                return action
            }
            guard case .wait(let ticket) = action else { return continuation.resume(returning: .granted) }
            let timer = timers.any().scheduleTask(in: TimeAmount(maxWait)) { self.expire(ticket) }
            let queued = state.withLock { state in
                guard state.waiters[ticket] != nil else { return false }
                state.waiters[ticket]?.timer = timer
                return true
            }
            if !queued { timer.cancel() }
        }
    }

    /// Frees a slot: the longest-waiting caller gets it, else it becomes available.
    func release() {
        let next = state.withLock { state -> Waiter? in
            guard case .grant(let ticket) = state.machine.release() else { return nil }
            let waiter = state.waiters.removeValue(forKey: ticket)
            waitingChanged(state.machine.waitingCount)
            return waiter
        }
        guard let next else { return }
        next.timer?.cancel()
        next.continuation.resume(returning: .granted)
    }

    private func expire(_ ticket: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard state.machine.timedOut(ticket: ticket) else { return nil }
            let waiter = state.waiters.removeValue(forKey: ticket)
            waitingChanged(state.machine.waitingCount)
            return waiter
        }
        waiter?.continuation.resume(returning: .timedOut)
    }
}
