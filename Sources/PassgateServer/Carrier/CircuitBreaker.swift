import Synchronization

/// A circuit per carrier base URL: after `threshold` consecutive transport failures it opens and
/// the URL is skipped (requests fail fast, unsent) for `openMs`; then one probe is let through,
/// whose result closes or reopens it.
final class CircuitBreaker: Sendable {
    enum State: Equatable, Sendable {
        case closed(failures: Int)
        case open(untilMs: Int64)
        case halfOpen
    }

    let threshold: Int
    let openMs: Int
    private let now: @Sendable () -> Int64
    // `Mutex`: tiny state transitions per call, never held across an await.
    private let states = Mutex<[String: State]>([:])

    init(threshold: Int, openMs: Int, nowMilliseconds: @escaping @Sendable () -> Int64) {
        self.threshold = threshold
        self.openMs = openMs
        self.now = nowMilliseconds
    }

    /// Whether a call to `url` may go out now (a half-open circuit lets exactly one through).
    func permit(_ url: String) -> Bool {
        let time = now()
        return states.withLock { states in
            switch states[url] ?? .closed(failures: 0) {
            case .closed: return true
            case .halfOpen: return false
            case .open(let until):
                guard time >= until else { return false }
                states[url] = .halfOpen
                return true
            }
        }
    }

    /// Records a call's result; `transportFailure` is any failure of the HTTP exchange itself.
    func record(_ url: String, transportFailure: Bool) {
        let time = now()
        states.withLock { states in
            guard transportFailure else {
                states[url] = .closed(failures: 0)
                return
            }
            switch states[url] ?? .closed(failures: 0) {
            case .closed(let failures):
                states[url] = failures + 1 >= threshold ? .open(untilMs: time + Int64(openMs)) : .closed(failures: failures + 1)
            case .halfOpen, .open:
                states[url] = .open(untilMs: time + Int64(openMs))
            }
        }
    }

    func state(_ url: String) -> State { states.withLock { $0[url] ?? .closed(failures: 0) } }

    /// Whether `url`'s circuit is open or half-open (not taking ordinary traffic).
    func isOpen(_ url: String) -> Bool { !Self.isClosed(state(url)) }

    /// URLs whose circuit is not closed, for `/readyz` details.
    var openURLs: [String] {
        states.withLock { states in states.filter { !Self.isClosed($0.value) }.keys.sorted() }
    }

    private static func isClosed(_ state: State) -> Bool {
        if case .closed = state { return true }
        return false
    }
}
