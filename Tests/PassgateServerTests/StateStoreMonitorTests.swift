import Logging
import Metrics
import PassgateState
import PassgateTestSupport
import Prometheus
import ServiceLifecycle
import Synchronization
import Testing
import CurlTransport
import PassgateCore

@testable import PassgateServer

/// The state store's watcher as a service of the runtime's group.
@Suite("state store monitor")
struct StateStoreMonitorTests {
    @Test("a graceful shutdown ends the monitor's wait between checks at once, not after its interval")
    func gracefulShutdownEndsTheWait() async throws {
        let registry = PrometheusCollectorRegistry()
        // An hour between checks: before, the group's shutdown waited for the sleep to end.
        let monitor = StateStoreMonitor(
            store: MemoryStateStore(), backend: "memory", interval: .seconds(3_600),
            factory: PrometheusMetricsFactory(registry: registry), logger: Logger(label: "monitor-test"))
        let group = ServiceGroup(configuration: .init(services: [monitor], logger: Logger(label: "monitor-test")))
        let running = Task { try await group.run() }
        // The first check ran: the gauge is exported as reachable.
        #expect(await eventually { Self.gauge(registry) == 1 })
        await group.triggerGracefulShutdown()
        // A 60 s guard, so that a regression fails here instead of hanging the suite for an hour.
        let stopped = await withTaskGroup(of: Bool.self) { tasks in
            tasks.addTask { (try? await running.value) != nil }
            tasks.addTask {
                try? await Task.sleep(for: .seconds(60))
                running.cancel()  // the group then cancels the monitor's sleep, and the first task ends
                return false
            }
            let first = await tasks.next() ?? false
            tasks.cancelAll()
            return first
        }
        #expect(stopped, "the group still waited for the monitor 60 s after a graceful shutdown")
    }

    /// A store that counts the round trips readiness could cost it and fails when told to.
    final class PingCountingStore: ExchangeStateStore {
        let inner = MemoryStateStore()
        let pings = Mutex(0)
        let down = Mutex(false)
        func get(_ key: String) async throws(StateStoreError) -> [UInt8]? { try await inner.get(key) }
        func settle(_ key: String, value: [UInt8], ttlMs: Int, owner: String?) async throws(StateStoreError) -> [UInt8]? {
            try await inner.settle(key, value: value, ttlMs: ttlMs, owner: owner)
        }
        func claim(_ key: String, owner: String, leaseMs: Int, ttlMs: Int) async throws(StateStoreError) -> ClaimAnswer {
            try await inner.claim(key, owner: owner, leaseMs: leaseMs, ttlMs: ttlMs)
        }
        func renew(_ key: String, owner: String, leaseMs: Int) async throws(StateStoreError) -> Bool { try await inner.renew(key, owner: owner, leaseMs: leaseMs) }
        func release(_ key: String, owner: String) async throws(StateStoreError) { try await inner.release(key, owner: owner) }
        func ping() async throws(StateStoreError) {
            pings.withLock { $0 += 1 }
            if down.withLock({ $0 }) { throw StateStoreError(.unavailable, "redis at 127.0.0.1:1: connect failed") }
        }
    }

    @Test("readiness reads the monitor's last check: a thousand health checks cost the store no round trip, and a change shows after the next check")
    func readinessCostsNoRoundTrip() async throws {
        let store = PingCountingStore()
        let monitor = StateStoreMonitor(
            store: store, backend: "redis", factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()), logger: Logger(label: "monitor-test"))
        let gateway = ProviderGateway(
            registry: .testing, providers: [:], transport: CurlCarrierTransport(client: CurlHTTPClient()),
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())))
        let readiness = PassgateRuntime.readiness(gateway: gateway, monitor: monitor, audit: nil)
        #expect(await readiness.evaluate().checks["state"] == "ok: redis, not checked yet")
        _ = await monitor.check()
        for _ in 0..<1_000 { _ = await readiness.evaluate() }
        #expect(store.pings.withLock { $0 } == 1)
        #expect(await readiness.evaluate().checks["state"] == "ok: redis")
        store.down.withLock { $0 = true }
        #expect(await readiness.evaluate().checks["state"] == "ok: redis")
        _ = await monitor.check()
        let (ready, checks) = await readiness.evaluate()
        #expect(ready && checks["state"]?.hasPrefix("degraded: state store unavailable") == true, "\(checks)")
    }

    /// `passgate_state_store_up{backend="memory"}` as exported, or nil before the first check.
    static func gauge(_ registry: PrometheusCollectorRegistry) -> Double? {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        let prefix = #"passgate_state_store_up{backend="memory"} "#
        let line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Double($0.dropFirst(prefix.count)) }
    }
}
