import PassgateCore
import EventLoopExecution
import Hummingbird
import Logging
import Metrics
import NIOCore
import PassgateAudit
import PassgateConfig
import PassgateState
import Prometheus
import ServiceLifecycle
import Synchronization

extension PassgateRuntime {
    /// The audit log of carrier calls, unless `audit.enabled` is false.
    static func makeAuditLog(_ settings: AuditSettings, clock: any PassgateClock, logger: Logger, metricsFactory: any MetricsFactory) throws -> AuditLogWriter? {
        guard settings.enabled else { return nil }
        return try AuditLogWriter(
            path: settings.path, maxFileBytes: settings.maxFileBytes, fsyncIntervalMs: settings.fsyncIntervalMs,
            writeDelayMs: settings.writeDelayMs, maxFiles: settings.maxFiles,
            maxAgeDays: settings.maxAgeDays, logger: logger, metricsFactory: metricsFactory, clock: clock)
    }

    /// The readiness checks (`/readyz` answers with their verdict, `/admin/readyz` with each). Gating: the audit log (a call that cannot be recorded is a call that
    /// cannot be reconciled) and the configuration. Reported only: the carrier's circuits and the
    /// shared state store, which every instance sees the same.
    static func readiness(gateway: ProviderGateway, monitor: StateStoreMonitor, audit: AuditLogWriter?) -> Readiness {
        Readiness(checks: [
            .init(name: "audit", gating: true) {
                guard let audit else { return (true, "disabled") }
                let status = audit.status
                return (status.isHealthy, status.lastError ?? "")
            },
            .init(name: "config", gating: true) { (true, "") },
            .init(name: "carrier", gating: false) { [gateway] in
                let open = gateway.openCircuits
                return (true, open.isEmpty ? "" : "circuit open for \(open.joined(separator: ", "))")
            },
            // The monitor's last check, not a round trip: a health check must not become load.
            .init(name: "state", gating: false) {
                let (checked, problem) = monitor.lastCheck
                guard checked else { return (true, "\(monitor.backend), not checked yet") }
                guard let problem else { return (true, monitor.backend) }
                return (false, "\(problem); requests that need it get carrier_unavailable, the carrier is not called")
            },
        ])
    }

    /// The reloader behind SIGHUP and `POST /admin/reload`, with the caller's reload hooks (the
    /// embedded sandbox points the providers at itself again and learns the new credentials).
    func makeReloader(running: PassgateConfiguration, live: LiveSettings, logger: Logger) -> ConfigurationReloader {
        let source = reload
        return ConfigurationReloader(
            running: running, live: live, logger: logger,
            load: {
                guard let source else { throw NoConfigurationSource() }
                return try source()
            },
            prepare: prepareReload,
            didApply: didReload
        )
    }

    /// The admin listener, when an admin key is configured.
    func makeAdminApplication(
        reloader: ConfigurationReloader, readiness: Readiness, gateway: ProviderGateway, exchange: OneTimeTokenExchange, metrics: PassgateMetrics,
        ports: ListenerPorts, eventLoops: any EventLoopGroup, logger: Logger
    ) -> (any Service)? {
        let admin = configuration.admin
        guard let keyHash = admin.apiKeySHA256 else { return nil }
        let adminLogger = Self.listenerLogger(logger, "admin")
        return Self.operationsListener(
            "admin", router: buildAdminRouter(
                reloader: reloader, readiness: readiness, keyHash: keyHash, metrics: metrics,
                console: ConsoleDependencies(
                    settings: admin, clock: clock, authFailuresPerMinute: configuration.server.authFailuresPerMinute, gateway: gateway),
                checks: ConsoleCheckDependencies(exchange: exchange, audit: configuration.audit, logger: adminLogger),
                logger: adminLogger),
            host: admin.host, port: admin.port, limits: configuration.server.operationsConnectionLimits,
            limitReached: metrics.frontDoor(listener: "admin"), eventLoops: eventLoops,
            logger: adminLogger, ready: ports.admin)
    }

    /// The metrics listener, unless `metrics.enabled` is false.
    func makeMetricsApplication(
        registry: PrometheusCollectorRegistry, metrics: PassgateMetrics, ports: ListenerPorts, eventLoops: any EventLoopGroup, logger: Logger
    ) -> (any Service)? {
        let settings = configuration.metrics
        guard settings.enabled else { return nil }
        let metricsLogger = Self.listenerLogger(logger, "metrics")
        return Self.operationsListener(
            "metrics", router: buildMetricsRouter(registry: registry, metrics: metrics, logger: metricsLogger),
            host: settings.host, port: settings.port, limits: configuration.server.operationsConnectionLimits,
            limitReached: metrics.frontDoor(listener: "metrics"), eventLoops: eventLoops,
            logger: metricsLogger, ready: ports.metrics)
    }

    private static func listenerLogger(_ logger: Logger, _ name: String) -> Logger {
        var listenerLogger = logger
        listenerLogger[metadataKey: "listener"] = .string(name)
        return listenerLogger
    }

    /// The largest request body an operations listener collects: their routes read none.
    static let operationsMaxBodyBytes = 64 << 10

    /// An operations listener (admin, metrics): logs `<name> listening` and reports its port once
    /// bound. Its requests run on the pool, never on the loop.
    private static func operationsListener(
        _ name: String, router: Router<PassgateRequestContext>, host: String, port: Int, limits: ConnectionLimits,
        limitReached: @escaping @Sendable (ConnectionLimitReached) -> Void, eventLoops: any EventLoopGroup, logger: Logger,
        ready: @escaping @Sendable (Int) async -> Void
    ) -> any Service {
        listener(
            router: router, host: host, port: port, serverName: "passgate-\(name)", requestsOnEventLoop: 0,
            maxRequestBodyBytes: { operationsMaxBodyBytes }, limits: limits,
            limitReached: limitReached, eventLoops: eventLoops, logger: logger,
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                logger.notice("\(name) listening", metadata: ["host": .string(host), "port": .stringConvertible(bound)])
                await ready(bound)
            })
    }

    /// The runtime was built from a configuration value, not a file: there is nothing to re-read.
    struct NoConfigurationSource: Error, CustomStringConvertible {
        var description: String { "this instance was not started from a configuration file, so there is nothing to reload" }
    }
}

/// Collects the listeners' ports and reports `Endpoints` once all expected ones are up.
final class ListenerPorts: Sendable {
    private struct State {
        var api: Int?
        var admin: Int?
        var metrics: Int?
        var reported = false
    }

    private let state = Mutex(State())
    private let expectsAdmin: Bool
    private let expectsMetrics: Bool
    private let onReady: @Sendable (PassgateRuntime.Endpoints) async -> Void

    init(expectsAdmin: Bool, expectsMetrics: Bool, onReady: @escaping @Sendable (PassgateRuntime.Endpoints) async -> Void) {
        self.expectsAdmin = expectsAdmin
        self.expectsMetrics = expectsMetrics
        self.onReady = onReady
    }

    func api(_ port: Int) async { await update { $0.api = port } }
    func admin(_ port: Int) async { await update { $0.admin = port } }
    func metrics(_ port: Int) async { await update { $0.metrics = port } }

    private func update(_ change: (inout State) -> Void) async {
        let endpoints: PassgateRuntime.Endpoints? = state.withLock { state in
            change(&state)
            guard !state.reported, let api = state.api, !expectsAdmin || state.admin != nil, !expectsMetrics || state.metrics != nil else { return nil }
            state.reported = true
            return PassgateRuntime.Endpoints(apiPort: api, adminPort: state.admin, metricsPort: state.metrics)
        }
        if let endpoints { await onReady(endpoints) }
    }
}
