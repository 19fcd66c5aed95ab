import Logging
import Metrics
import PassgateState
import ServiceLifecycle
import Synchronization

/// Watches the shared state store (Redis) from this instance: pings it every `interval`, exports
/// `passgate_state_store_up{backend}` (1 reachable, 0 not) and logs each change once.
///
/// Not a readiness condition: every instance shares the same Redis, so failing readiness on it
/// would take every instance out of the load balancer at once. Requests that need the store get
/// `carrier_unavailable` (retryable, the carrier not called) while it is down; the admin
/// listener's `/admin/readyz` reports it from the last check (``lastCheck``), so no health check,
/// however frequent, costs the store a round trip.
final class StateStoreMonitor: Service, Sendable {
    let store: any ExchangeStateStore
    let backend: String
    let interval: Duration
    private let gauge: Gauge
    private let logger: Logger
    /// The last check's problem (`.some(nil)`: reachable), so that only changes are logged and
    /// readiness reads it without asking the store: nil before the first check.
    private let last = Mutex<String??>(nil)

    init(store: any ExchangeStateStore, backend: String, interval: Duration = .seconds(5), factory: any MetricsFactory, logger: Logger) {
        self.store = store
        self.backend = backend
        self.interval = interval
        self.logger = logger
        gauge = Gauge(label: "passgate_state_store_up", dimensions: [("backend", backend)], factory: factory)
    }

    /// Pings the store now and records the result: `nil` when reachable, else what is wrong.
    func check() async -> String? {
        let problem: String?
        do {
            try await store.ping()
            problem = nil
        } catch {
            problem = error.description
        }
        gauge.record(problem == nil ? 1 : 0)
        let changed = last.withLock { last -> Bool in
            defer { last = .some(problem) }
            return last.map { $0 == nil } != (problem == nil)
        }
        if changed, let problem {
            logger.warning("state store unreachable: requests that need it get carrier_unavailable (the carrier is not called) until it is back",
                           metadata: ["backend": .string(backend), "error": .string(problem)])
        } else if changed {
            logger.notice("state store reachable", metadata: ["backend": .string(backend)])
        }
        return problem
    }

    /// The last check's result without asking the store again: `checked` false before the first
    /// check, else the problem it found (`nil`: reachable).
    var lastCheck: (checked: Bool, problem: String?) {
        last.withLock { last in last.map { (true, $0) } ?? (false, nil) }
    }

    /// Checks every `interval` until the service group shuts down. A graceful shutdown ends the
    /// wait between checks at once: the group waits for every service to return before the process
    /// exits, and a plain sleep held `passgate serve`'s stop up to `interval` past its drain.
    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            _ = await check()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
        }
    }
}
