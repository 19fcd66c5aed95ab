import Logging
import NIOCore
import PassgateState
import Synchronization

/// Keeps one claim's lease alive while its call waits for a slot, fails over and is in flight:
/// a thin owner of `ClaimLeaseStateMachine`, with the timer on an event loop (so tests move its
/// time) and the store's renewal in a task of its own.
///
/// Renewal instead of a lifetime computed from every budget (queue wait, each base URL's
/// timeouts, the store's own time): a computed lifetime is wrong the day a budget is added or a
/// stall (a paused VM, a long GC of the host) exceeds it, and then another request would find the
/// claim lapsed while the call is still in flight. A lease that is renewed lapses only when its
/// instance stops renewing, which is what followers need to know.
final class ClaimLease: Sendable {
    private struct State {
        var machine: ClaimLeaseStateMachine
        var timer: Scheduled<Void>?
    }

    private let store: any ExchangeStateStore
    private let key: String
    private let owner: String
    private let leaseMs: Int
    private let loop: any EventLoop
    private let logger: Logger
    // `Mutex`: each critical section is one state-machine event and the timer handle.
    private let state: Mutex<State>

    /// Starts renewing at once; call ``stop()`` when the call is settled.
    init(store: any ExchangeStateStore, key: String, owner: String, lease: TimeAmount, claimedAt: NIODeadline, loop: any EventLoop, logger: Logger) {
        self.store = store
        self.key = key
        self.owner = owner
        leaseMs = Int(lease.nanoseconds / 1_000_000)
        self.loop = loop
        self.logger = logger
        let machine = ClaimLeaseStateMachine(lease: lease, claimedAt: claimedAt)
        state = Mutex(State(machine: machine))
        perform(machine.start)
    }

    /// Whether the lease is still held now, as far as this instance knows.
    var isLive: Bool {
        let now = loop.now
        return state.withLock { $0.machine.isLive(at: now) }
    }

    /// Stops renewing: the outcome is settled or the claim released.
    func stop() {
        let timer = state.withLock { state -> Scheduled<Void>? in
            guard state.machine.stop() else { return nil }
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    private func perform(_ action: ClaimLeaseStateMachine.Action) {
        switch action {
        case .none:
            return
        case .schedule(let deadline):
            let timer = loop.scheduleTask(deadline: deadline) { [self] in perform(state.withLock { $0.machine.timerFired() }) }
            let kept = state.withLock { state -> Bool in
                guard !state.machine.isStopped else { return false }
                state.timer = timer
                return true
            }
            if !kept { timer.cancel() }
        case .renew:
            let sentAt = loop.now
            Task { [self] in
                let renewal: ClaimLeaseStateMachine.Renewal
                do throws(StateStoreError) {
                    renewal = try await store.renew(key, owner: owner, leaseMs: leaseMs) ? .renewed : .lost
                } catch {
                    logger.warning("could not renew the claim on a token's provider call", metadata: ["error": .string(error.description)])
                    renewal = .failed
                }
                if renewal == .lost {
                    logger.warning("the claim on a token's provider call is gone from the state store before its outcome was settled")
                }
                perform(state.withLock { $0.machine.renewed(sentAt: sentAt, renewal) })
            }
        }
    }
}
