/// One base URL's circuit, as a value: it takes events with the time they happen and says what
/// to do. No locks, no clock of its own, so every transition is tested synchronously.
///
/// After `threshold` consecutive failures the circuit opens: calls are refused (they fail fast,
/// unsent) for `openMs`. Then one call is let through as a probe; its result closes the circuit
/// or opens it again. A probe that never reports (it was not sent after all, or its task ended
/// without a result) does not hold the circuit half-open for ever: after another `openMs` the
/// next call becomes the probe.
struct CircuitBreakerStateMachine: Sendable, Equatable {
    enum State: Sendable, Equatable {
        case closed(failures: Int)
        case open(untilMs: Int64)
        /// A probe is out since `sinceMs`.
        case halfOpen(sinceMs: Int64)
    }

    /// What a caller may do now.
    enum Permit: Sendable, Equatable {
        /// Call as usual.
        case call
        /// Call; this call is the probe, and its result decides (`record`), or `probeNotSent`
        /// must say that it never left.
        case probe
        /// Do not call this URL.
        case refused
    }

    let threshold: Int
    let openMs: Int64
    private(set) var state: State = .closed(failures: 0)

    init(threshold: Int, openMs: Int) {
        self.threshold = max(1, threshold)
        self.openMs = Int64(openMs)
    }

    /// Whether a call may go out at `nowMs`.
    mutating func permit(nowMs: Int64) -> Permit {
        switch state {
        case .closed:
            return .call
        case .open(let until):
            guard nowMs >= until else { return .refused }
            state = .halfOpen(sinceMs: nowMs)
            return .probe
        case .halfOpen(let since):
            guard nowMs >= since + openMs else { return .refused }
            state = .halfOpen(sinceMs: nowMs)
            return .probe
        }
    }

    /// A call's result: `failure` when it says the carrier's side is in trouble (a transport
    /// failure, an HTML page, a 5xx), not when the carrier answered with one of its codes.
    mutating func record(failure: Bool, nowMs: Int64) {
        guard failure else {
            state = .closed(failures: 0)
            return
        }
        switch state {
        case .closed(let failures):
            state = failures + 1 >= threshold ? .open(untilMs: nowMs + openMs) : .closed(failures: failures + 1)
        case .halfOpen, .open:
            state = .open(untilMs: nowMs + openMs)
        }
    }

    /// The probe was permitted but never sent (e.g. the call cap had no slot): nothing was
    /// learned, so the next call may probe at once.
    mutating func probeNotSent(nowMs: Int64) {
        guard case .halfOpen = state else { return }
        state = .open(untilMs: nowMs)
    }

    /// Whether the circuit takes ordinary traffic.
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }
}
