import Logging
import Metrics
import PassgateState
import PassgateTestSupport
import Prometheus
import ServiceLifecycle
import Testing

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

    /// `passgate_state_store_up{backend="memory"}` as exported, or nil before the first check.
    static func gauge(_ registry: PrometheusCollectorRegistry) -> Double? {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        let prefix = #"passgate_state_store_up{backend="memory"} "#
        let line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Double($0.dropFirst(prefix.count)) }
    }
}
