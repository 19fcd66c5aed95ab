import NIOCore
import Synchronization

/// At most `limit` carrier calls in flight; the rest wait their turn, first come first served,
/// for at most `maxWait`.
///
/// The wait is bounded because a carrier that slows down would otherwise let requests pile up
/// here without end: each one holding a client connection and its memory, and each answered only
/// after the client has long given up. A caller that gets no slot in time makes no call, so its
/// token is unspent and the client may retry it (`carrier_unavailable`).
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
        var timer: Task<Void, Never>?
    }

    private struct State {
        var available: Int
        var nextTicket: UInt64 = 0
        /// Tickets in arrival order. A ticket whose waiter timed out stays until `release` skips it,
        /// so giving up costs O(1) instead of a search of the queue.
        var order = CircularBuffer<UInt64>()
        /// Whoever removes a waiter from here resumes it: exactly once, by a release or by its timer.
        var waiters: [UInt64: Waiter] = [:]
    }

    let maxWait: Duration
    // `Mutex`: every critical section is a few dictionary and buffer operations.
    private let state: Mutex<State>
    /// Told the number of waiters whenever it changes, inside the lock so that values arrive in
    /// order (a gauge). Called only when calls queue, never on the uncontended path.
    private let waitingChanged: @Sendable (Int) -> Void

    init(limit: Int, maxWait: Duration, waitingChanged: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.maxWait = maxWait
        self.waitingChanged = waitingChanged
        state = Mutex(State(available: limit))
    }

    /// Callers waiting for a slot now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Takes a slot, waiting at most `maxWait` for one; after `.granted`, call `release()` once
    /// the call is over.
    func acquire() async -> Admission {
        // The common case takes a slot without suspending: a continuation resumed at once would
        // still cost the task a trip through the executor queue and often a thread wake-up.
        let taken = state.withLock { state in
            guard state.available > 0 else { return false }
            state.available -= 1
            return true
        }
        if taken { return .granted }
        guard maxWait > .zero else { return .timedOut }
        return await withCheckedContinuation { continuation in
            let ticket = state.withLock { state -> UInt64? in
                if state.available > 0 {
                    state.available -= 1
                    return nil
                }
                let ticket = state.nextTicket
                state.nextTicket &+= 1
                state.order.append(ticket)
                state.waiters[ticket] = Waiter(continuation: continuation)
                waitingChanged(state.waiters.count)
                return ticket
            }
            guard let ticket else { return continuation.resume(returning: .granted) }
            let timer = Task { [maxWait] in
                try? await Task.sleep(for: maxWait)
                guard !Task.isCancelled else { return }
                self.expire(ticket)
            }
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
            while let ticket = state.order.popFirst() {
                guard let waiter = state.waiters.removeValue(forKey: ticket) else { continue }
                waitingChanged(state.waiters.count)
                return waiter
            }
            state.available += 1
            return nil
        }
        guard let next else { return }
        next.timer?.cancel()
        next.continuation.resume(returning: .granted)
    }

    private func expire(_ ticket: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: ticket) else { return nil }
            waitingChanged(state.waiters.count)
            return waiter
        }
        waiter?.continuation.resume(returning: .timedOut)
    }
}
