import Synchronization

/// One in-process carrier call that concurrent duplicates wait for.
///
/// The leader runs the call in its own request task and hands the outcome over with `finish`;
/// followers wait in `wait`. No task of its own: that would cost a task creation and two executor
/// hops per request for the rare duplicate's sake.
final class SharedFlight<Outcome: Sendable>: Sendable {
    private enum State {
        case running([CheckedContinuation<Outcome, Never>])
        case finished(Outcome)
    }

    // `Mutex`: held only to add a waiter or take the list, never across an await.
    private let state = Mutex<State>(.running([]))

    init() {}

    /// The leader's outcome, at once if it is already known. Not cancellable: a follower that
    /// gave up would not make the carrier call any shorter.
    func wait() async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let known = state.withLock { state -> Outcome? in
                switch state {
                case .running(var waiters):
                    waiters.append(continuation)
                    state = .running(waiters)
                    return nil
                case .finished(let outcome):
                    return outcome
                }
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Hands `outcome` to every follower, present and late. Only the first call counts.
    func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard case .running(let waiters) = state else { return [] }
            state = .finished(outcome)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
