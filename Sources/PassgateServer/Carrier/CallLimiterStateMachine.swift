import NIOCore

/// The call cap's bookkeeping, as a value: slots and a first-come-first-served queue of tickets.
/// It takes events (acquire, release, a waiter's time is up) and says what to do; its owner
/// (`CallLimiter`) keeps the continuations and the timers, and resumes outside its lock.
struct CallLimiterStateMachine: Sendable {
    /// What an acquire must do.
    enum AcquireAction: Equatable, Sendable {
        /// A slot is taken: call now.
        case granted
        /// No slot: wait under this ticket (until `release` grants it or `timedOut` expires it).
        case wait(ticket: UInt64)
        /// No slot and waiting is not allowed (`maxWait` 0): do not call.
        case refused
    }

    /// What a release must do.
    enum ReleaseAction: Equatable, Sendable {
        /// Hand the slot to this waiter.
        case grant(ticket: UInt64)
        /// Nobody waits: the slot is free again.
        case freed
    }

    private(set) var available: Int
    private var nextTicket: UInt64 = 0
    /// Tickets in arrival order. A ticket whose waiter timed out stays until `release` skips it,
    /// so giving up costs O(1) instead of a search of the queue.
    private var order = CircularBuffer<UInt64>()
    /// Tickets still waiting.
    private var waiting: Set<UInt64> = []

    init(limit: Int) {
        available = max(0, limit)
    }

    /// Callers waiting for a slot now.
    var waitingCount: Int { waiting.count }

    mutating func acquire(mayWait: Bool) -> AcquireAction {
        if available > 0 {
            available -= 1
            return .granted
        }
        guard mayWait else { return .refused }
        let ticket = nextTicket
        nextTicket &+= 1
        order.append(ticket)
        waiting.insert(ticket)
        return .wait(ticket: ticket)
    }

    /// A slot is given back: the longest waiter still waiting gets it, else it is free.
    mutating func release() -> ReleaseAction {
        while let ticket = order.popFirst() {
            guard waiting.remove(ticket) != nil else { continue }
            return .grant(ticket: ticket)
        }
        available += 1
        return .freed
    }

    /// A waiter's time is up: true when it was still waiting (it must be told `.timedOut`); false
    /// when a release granted it first (it keeps its slot).
    mutating func timedOut(ticket: UInt64) -> Bool {
        waiting.remove(ticket) != nil
    }
}
