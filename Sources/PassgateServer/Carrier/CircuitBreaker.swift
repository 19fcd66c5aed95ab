import Synchronization

/// The circuits of a provider's base URLs: a thin, thread-safe owner of one
/// `CircuitBreakerStateMachine` per URL, reading the injected clock once per event.
final class CircuitBreaker: Sendable {
    typealias Permit = CircuitBreakerStateMachine.Permit

    let threshold: Int
    let openMs: Int
    private let now: @Sendable () -> Int64
    // `Mutex`: each event is one small state transition, never held across an await.
    private let machines = Mutex<[String: CircuitBreakerStateMachine]>([:])

    init(threshold: Int, openMs: Int, nowMilliseconds: @escaping @Sendable () -> Int64) {
        self.threshold = threshold
        self.openMs = openMs
        self.now = nowMilliseconds
    }

    /// Whether a call to `url` may go out now, and whether it is the probe.
    func permit(_ url: String) -> Permit {
        let time = now()
        return update(url) { $0.permit(nowMs: time) }
    }

    /// Records a call's result; `failure` as `CircuitBreakerStateMachine.record` defines it.
    func record(_ url: String, failure: Bool) {
        let time = now()
        update(url) { $0.record(failure: failure, nowMs: time) }
    }

    /// A permitted probe was not sent after all.
    func probeNotSent(_ url: String) {
        let time = now()
        update(url) { $0.probeNotSent(nowMs: time) }
    }

    func state(_ url: String) -> CircuitBreakerStateMachine.State {
        machines.withLock { $0[url]?.state ?? .closed(failures: 0) }
    }

    /// Whether `url`'s circuit is open or half-open (not taking ordinary traffic).
    func isOpen(_ url: String) -> Bool { machines.withLock { !($0[url]?.isClosed ?? true) } }

    /// URLs whose circuit is not closed, for `/readyz` details.
    var openURLs: [String] {
        machines.withLock { machines in machines.filter { !$0.value.isClosed }.keys.sorted() }
    }

    private func update<Result>(_ url: String, _ event: (inout CircuitBreakerStateMachine) -> Result) -> Result {
        machines.withLock { machines in
            event(&machines[url, default: CircuitBreakerStateMachine(threshold: threshold, openMs: openMs)])
        }
    }
}
