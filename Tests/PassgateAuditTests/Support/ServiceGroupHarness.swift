import Logging
import PassgateAudit
import ServiceLifecycle

/// Runs services in a real `ServiceGroup` and shuts it down gracefully, as `passgate serve` does.
struct ServiceGroupHarness: Sendable {
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    init(_ services: any Service...) {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: Logger(label: "audit-test-group")))
        self.group = group
        running = Task { try await group.run() }
    }

    func shutdownGracefully() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}
