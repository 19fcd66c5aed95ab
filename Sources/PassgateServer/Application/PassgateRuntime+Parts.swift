import CarrierSandbox
import Hummingbird
import Logging
import Metrics
import PassgateAudit
import PassgateConfig
import PassgateState
import ServiceLifecycle
import Synchronization

extension PassgateRuntime {
    /// The audit log of carrier calls, unless `audit.enabled` is false.
    static func makeAuditLog(_ settings: AuditSettings, logger: Logger, metricsFactory: any MetricsFactory) throws -> AuditLogWriter? {
        guard settings.enabled else { return nil }
        return try AuditLogWriter(
            path: settings.path, maxFileBytes: settings.maxFileBytes, fsyncIntervalMs: settings.fsyncIntervalMs, logger: logger, metricsFactory: metricsFactory)
    }

    /// `/readyz`'s checks: configuration, carrier circuits (informational), state store, keys, and
    /// the audit log (a call that cannot be recorded is a call that cannot be reconciled).
    static func readiness(configuration: PassgateConfiguration, gateway: ProviderGateway, store: any ExchangeStateStore, audit: AuditLogWriter?) -> Readiness {
        Readiness(checks: [
            ("audit", {
                guard let audit else { return (true, "disabled") }
                let status = audit.status
                return (status.isHealthy, status.lastError ?? "")
            }),
            ("config", { (true, "") }),
            ("carrier", { [gateway] in
                let open = gateway.openCircuits
                return (true, open.isEmpty ? "" : "circuit open for \(open.joined(separator: ", "))")
            }),
            ("state", {
                do {
                    try await store.ping()
                    return (true, "")
                } catch {
                    return (false, "\(error)")
                }
            }),
            ("keys", { [apps = configuration.apps] in
                let missing = apps.filter { $0.signMode == .rsa && $0.privateKey == nil }.map(\.appId)
                return (missing.isEmpty, missing.isEmpty ? "" : "no private key loaded for \(missing.joined(separator: ", "))")
            }),
        ])
    }

    /// The reloader behind SIGHUP and `POST /admin/reload`. With the embedded sandbox, a reload
    /// points providers at it again and hands it the new app credentials, as at start-up.
    func makeReloader(running: PassgateConfiguration, live: LiveSettings, sandbox: CarrierSandbox?, logger: Logger) -> ConfigurationReloader {
        let source = reload
        let sandboxPort = sandbox?.port
        return ConfigurationReloader(
            running: running, live: live, logger: logger,
            load: {
                guard let source else { throw NoConfigurationSource() }
                return try source()
            },
            prepare: { configuration in
                if let sandboxPort, configuration.sandbox.enabled { configuration.pointProvidersAtSandbox(port: sandboxPort) }
            },
            didApply: { configuration in
                sandbox?.replaceApps(configuration.sandboxConfiguration.apps)
            }
        )
    }

    /// The admin listener, when an admin key is configured.
    func makeAdminApplication(reloader: ConfigurationReloader, metrics: PassgateMetrics, ports: ListenerPorts, logger: Logger) -> (any Service)? {
        let admin = configuration.admin
        guard let keyHash = admin.apiKeySHA256 else { return nil }
        var adminLogger = logger
        adminLogger[metadataKey: "listener"] = "admin"
        return Application(
            router: buildAdminRouter(reloader: reloader, keyHash: keyHash, metrics: metrics, logger: adminLogger),
            configuration: .init(address: .hostname(admin.host, port: admin.port), serverName: "passgate-admin"),
            onServerRunning: { [adminLogger] channel in
                let port = channel.localAddress?.port ?? admin.port
                adminLogger.notice("admin listening", metadata: ["host": .string(admin.host), "port": .stringConvertible(port)])
                await ports.admin(port)
            },
            logger: adminLogger
        )
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
        var reported = false
    }

    private let state = Mutex(State())
    private let sandbox: Int?
    private let expectsAdmin: Bool
    private let onReady: @Sendable (PassgateRuntime.Endpoints) async -> Void

    init(sandbox: Int?, expectsAdmin: Bool, onReady: @escaping @Sendable (PassgateRuntime.Endpoints) async -> Void) {
        self.sandbox = sandbox
        self.expectsAdmin = expectsAdmin
        self.onReady = onReady
    }

    func api(_ port: Int) async { await update { $0.api = port } }
    func admin(_ port: Int) async { await update { $0.admin = port } }

    private func update(_ change: (inout State) -> Void) async {
        let endpoints: PassgateRuntime.Endpoints? = state.withLock { state in
            change(&state)
            guard !state.reported, let api = state.api, !expectsAdmin || state.admin != nil else { return nil }
            state.reported = true
            return PassgateRuntime.Endpoints(apiPort: api, sandboxPort: sandbox, adminPort: state.admin)
        }
        if let endpoints { await onReady(endpoints) }
    }
}
