import PassgateCore
import Synchronization

/// The circuits of a provider's base URLs: a thin, thread-safe owner of one
/// `CircuitBreakerStateMachine` per URL, reading the injected clock once per event.
///
/// URLs are addressed by their index in the provider's list, fixed when the breaker is made: every
/// carrier call passes through here two or three times, and an index costs no hashing of the URL.
final class CircuitBreaker: Sendable {
    typealias Permit = CircuitBreakerStateMachine.Permit

    /// The provider's base URLs, in order; an event's index points into this list.
    let urls: [String]
    private let clock: any PassgateClock
    // `Mutex`: each event is one small state transition, never held across an await.
    private let machines: Mutex<[CircuitBreakerStateMachine]>

    init(urls: [String], threshold: Int, openMs: Int, clock: any PassgateClock) {
        self.urls = urls
        self.clock = clock
        self.machines = Mutex(urls.map { _ in CircuitBreakerStateMachine(threshold: threshold, openMs: openMs) })
    }

    /// Whether a call to the URL at `index` may go out now, and whether it is the probe.
    func permit(_ index: Int) -> Permit {
        let time = clock.monotonicMilliseconds()
        return machines.withLock { $0[index].permit(nowMs: time) }
    }

    /// Records a call's result (`failure` as `CircuitBreakerStateMachine.record` defines it) and
    /// returns whether the URL's circuit is open or half-open afterwards.
    @discardableResult
    func record(_ index: Int, failure: Bool) -> Bool {
        let time = clock.monotonicMilliseconds()
        return machines.withLock { machines in
            machines[index].record(failure: failure, nowMs: time)
            return !machines[index].isClosed
        }
    }

    /// A permitted probe was not sent after all.
    func probeNotSent(_ index: Int) {
        let time = clock.monotonicMilliseconds()
        machines.withLock { $0[index].probeNotSent(nowMs: time) }
    }

    /// Whether the URL at `index` has its circuit open or half-open (not taking ordinary traffic).
    func isOpen(_ index: Int) -> Bool { machines.withLock { !$0[index].isClosed } }

    /// Each URL's circuit as a word (`closed`, `open`, `half-open`), in order, for the console.
    var states: [(url: String, state: String)] {
        machines.withLock { machines in
            zip(urls, machines).map { url, machine in
                switch machine.state {
                case .closed: (url, "closed")
                case .open: (url, "open")
                case .halfOpen: (url, "half-open")
                }
            }
        }
    }

    /// URLs whose circuit is not closed, for `/readyz` details.
    var openURLs: [String] {
        machines.withLock { machines in machines.indices.filter { !machines[$0].isClosed }.map { urls[$0] } }.sorted()
    }
}
