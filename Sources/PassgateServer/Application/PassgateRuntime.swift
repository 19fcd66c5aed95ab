import PassgateCore
import CurlTransport
import EventLoopExecution
import Hummingbird
import Logging
import Metrics
import NIOCore
import NIOPosix
import OpenSSLCrypto
import PassgateAudit
import PassgateConfig
import PassgateState
import Prometheus
import ServiceLifecycle
import UnixSignals

/// A whole Passgate process: the companions its caller composes in (the embedded sandbox, for
/// `passgate serve`), the audit log, the libcurl engine and the listeners, run as one
/// `ServiceGroup` that starts in that order and stops in reverse.
public struct PassgateRuntime: Sendable {
    /// Where the instance listens once it is up.
    public struct Endpoints: Sendable, Equatable {
        public var apiPort: Int
        /// Set once the admin listener is up (only when `admin.apiKeySHA256` is configured).
        public var adminPort: Int?
        /// Set once the metrics listener is up (unless `metrics.enabled` is false).
        public var metricsPort: Int?
    }

    public var configuration: PassgateConfiguration
    public var logSink: any LogSink
    /// The one clock every part reads (provider timestamps, latencies, limits, expiry, log and
    /// audit times); tests pass a manual one.
    public var clock: any PassgateClock
    /// Reads the configuration again for a reload (SIGHUP, `POST /admin/reload`); `nil` when the
    /// configuration did not come from a file, and reloads then keep the running one.
    public var reload: (@Sendable () throws -> PassgateConfiguration)?
    /// Services the caller composes next to the server (the embedded sandbox): started before it,
    /// stopped after it.
    public var companions: [any Service] = []
    /// Applied to a reloaded configuration before it is compared, as the caller did at start
    /// (the embedded sandbox points the providers at itself again).
    public var prepareReload: @Sendable (inout PassgateConfiguration) -> Void = { _ in }
    /// Told every applied configuration (the embedded sandbox learns the new credentials).
    public var didReload: @Sendable (PassgateConfiguration) -> Void = { _ in }
    /// How long the services get to stop once cancelled (after the graceful phase, or when the
    /// task running ``run(signals:onReady:)`` is cancelled) before ServiceLifecycle ends the
    /// process. Requests still in flight are waited for (a spent token's outcome must reach the
    /// replay cache and the audit log), and their finishing needs CPU: a test process that shares
    /// two cores with hundreds of tests gives its instances longer.
    public var maximumCancellationDuration: Duration = .seconds(5)

    public init(
        configuration: PassgateConfiguration, logSink: any LogSink = StandardOutputSink(), clock: any PassgateClock = SystemClock(),
        reload: (@Sendable () throws -> PassgateConfiguration)? = nil
    ) {
        self.configuration = configuration
        self.logSink = logSink
        self.clock = clock
        self.reload = reload
    }

    /// The logger every component writes through: JSON lines (or text) into `logSink`.
    public func makeLogger(label: String = "passgate") -> Logger {
        let settings = configuration.log
        let sink = logSink, clock = clock
        return Logger(label: label) { label in
            JSONLogHandler(label: label, level: settings.level, sink: sink, json: settings.format == .json, clock: clock)
        }
    }

    /// Runs until a graceful shutdown (one of `signals`, or the task is cancelled); SIGHUP reloads
    /// the configuration when `reload` is set. `onReady` is called once the API (and the admin
    /// listener, when configured) listen.
    public func run(signals: [UnixSignal] = [], onReady: @escaping @Sendable (Endpoints) async -> Void = { _ in }) async throws {
        let loopCount = configuration.server.eventLoops ?? ListenerDefaults.eventLoops(cores: System.coreCount)
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: loopCount)
        do {
            try await runServices(on: eventLoops, loopCount: loopCount, signals: signals, onReady: onReady)
        } catch {
            try? await eventLoops.shutdownGracefully()
            throw error
        }
        // Only now, with every listener released: a Hummingbird server that is deallocated fails
        // its quiescing promise on its event loop, which must still be running then (on a loop
        // already shut down SwiftNIO reports an error today and will crash in later versions).
        try await eventLoops.shutdownGracefully()
        makeLogger().notice("stopped")
    }

    /// Builds the services and listeners on `eventLoops` and runs them until a graceful shutdown;
    /// everything it builds is released when it returns.
    private func runServices(
        on eventLoops: MultiThreadedEventLoopGroup, loopCount: Int, signals: [UnixSignal],
        onReady: @escaping @Sendable (Endpoints) async -> Void
    ) async throws {
        let logger = makeLogger()
        let configuration = configuration
        let store = try Self.makeStore(configuration.state, clock: clock, logger: makeLogger(label: "passgate.state"))
        // The store first in, so last out: calls finishing during the shutdown still reach it.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: store)] + companions.map { .init(service: $0) }

        let registry = PrometheusCollectorRegistry()
        let metricsFactory = PrometheusMetricsFactory(registry: registry)
        CertificateExpiry.export(configuration, metricsFactory: metricsFactory, logger: logger, clock: clock)
        // Exported at 0 from the start, so an alert can watch it before the first drop.
        let droppedLogLines = Counter(label: "passgate_log_lines_dropped_total", factory: metricsFactory)
        logSink.reportDrops { droppedLogLines.increment(by: $0) }
        // Before the transport, so it stops after it: carrier calls finishing during the shutdown are still written.
        let audit = try Self.makeAuditLog(configuration.audit, clock: clock, logger: makeLogger(label: "passgate.audit"), metricsFactory: metricsFactory)
        if let audit { services.append(.init(service: audit)) }
        var curlConfiguration = configuration.curlConfiguration
        curlConfiguration.clock = clock
        let curl = CurlHTTPClient(configuration: curlConfiguration, logger: makeLogger(label: "passgate.transport"), metricsFactory: metricsFactory)
        services.append(.init(service: curl))
        // After the transport, so it stops before it (its last export still has libcurl), and
        // before the listeners, so it stops after them (requests finishing then still get their spans out).
        let tracing = makeTracing(curl: curl, metricsFactory: metricsFactory)
        if let tracing { services.append(.init(service: tracing.exporter)) }

        let metrics = PassgateMetrics(factory: metricsFactory)
        let monitor = StateStoreMonitor(store: store, backend: configuration.state.backend.rawValue, factory: metricsFactory,
                                        logger: makeLogger(label: "passgate.state"))
        services.append(.init(service: monitor, successTerminationBehavior: .ignore))
        let api = try makeAPI(
            transport: CurlCarrierTransport(client: curl), store: store, monitor: monitor, audit: audit, metrics: metrics,
            eventLoops: eventLoops, logger: logger, tracer: tracing?.tracer)
        let readiness = api.readiness
        let reloader = makeReloader(running: configuration, live: api.live, logger: logger)
        let ports = ListenerPorts(
            expectsAdmin: configuration.admin.isEnabled, expectsMetrics: configuration.metrics.enabled, onReady: onReady)
        let server = configuration.server
        let requestsOnEventLoop = server.requestsOnEventLoop ?? ListenerDefaults.requestsOnEventLoop(loops: loopCount)
        let live = api.live
        let app = Self.listener(
            router: api.router, host: server.host, port: server.port, serverName: "passgate", requestsOnEventLoop: requestsOnEventLoop,
            // The body limit a reload sets applies from the next request, as it does in the controller.
            maxRequestBodyBytes: { live.maxBodyBytes }, limits: server.connectionLimits,
            // Draining: every answer says `Connection: close`, so keep-alive clients reconnect to
            // an instance that stays while this one still answers them (docs/operations.md).
            closesConnections: { readiness.isDraining }, limitReached: metrics.frontDoor(listener: "api"),
            eventLoops: eventLoops, logger: logger,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? server.port
                logger.notice("listening", metadata: [
                    "host": .string(server.host), "port": .stringConvertible(port), "eventLoops": .stringConvertible(loopCount),
                    "requestsOnEventLoop": .stringConvertible(requestsOnEventLoop),
                ])
                await ports.api(port)
            })
        services.append(.init(service: BindReportingListener(
            base: app, listener: "api", host: server.host, port: server.port, section: "server", logger: logger)))
        if let admin = makeAdminApplication(
            reloader: reloader, readiness: readiness, gateway: api.gateway, exchange: api.exchange, metrics: metrics, ports: ports,
            eventLoops: eventLoops, logger: logger)
        {
            services.append(.init(service: BindReportingListener(
                base: admin, listener: "admin", host: configuration.admin.host, port: configuration.admin.port, section: "admin", logger: logger)))
        }
        if let scrape = makeMetricsApplication(registry: registry, metrics: metrics, ports: ports, eventLoops: eventLoops, logger: logger) {
            services.append(.init(service: BindReportingListener(
                base: scrape, listener: "metrics", host: configuration.metrics.host, port: configuration.metrics.port, section: "metrics",
                logger: logger)))
        }
        services.append(.init(service: ReloadSignalService(reloader: reloader), successTerminationBehavior: .ignore))
        // Last in, so first told about a graceful shutdown: /readyz turns 503 at once.
        services.append(.init(service: DrainService(readiness: readiness, drainSeconds: server.drainSeconds, logger: logger),
                              successTerminationBehavior: .ignore))

        var groupConfiguration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: signals, logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(server.drainSeconds + server.shutdownTimeoutSeconds)
        groupConfiguration.maximumCancellationDuration = maximumCancellationDuration
        let group = ServiceGroup(configuration: groupConfiguration)
        // Requests' pool jobs go to Dispatch's global queue (PoolTaskExecutor), not Swift's own
        // executor: the rest of the service (accept loops, each connection's start) must wait in
        // the same queue, or it waits for a turn per pass through theirs (bench/decisions/0014-service-group-on-the-requests-queue.md).
        try await withTaskExecutorPreference(PoolTaskExecutor.shared) { try await group.run() }
    }
}

extension PassgateRuntime {
    /// The replay-cache backend. Never a silent fallback: several instances each with their own
    /// memory would let one token be spent once per instance.
    static func makeStore(_ state: StateSettings, clock: any PassgateClock, logger: Logger) throws -> any ExchangeStateStore {
        switch state.backend {
        case .memory:
            return MemoryStateStore(clock: clock)
        case .redis:
            guard let replayKey = state.replayKey else { throw SharedReplayKeyRequired() }
            // A key of its own for encryption, derived so one configured secret serves both uses.
            let encryptionKey = try Digest.hmacSHA256(key: replayKey, data: Array("passgate replay-cache encryption v1".utf8))
            let credentials = state.redisPassword.map { RedisCredentials(username: state.redisUsername, password: $0) }
            return try RedisStateStore(url: state.redisURL, credentials: credentials, encryptionKey: encryptionKey, logger: logger)
        }
    }

    /// Instances sharing Redis must derive the same keys, so the key cannot be generated per process.
    public struct SharedReplayKeyRequired: Error, CustomStringConvertible {
        public var description: String {
            "state.replayKey is required with state.backend redis: every instance must use the same key (openssl rand -hex 32, as env:NAME or file:PATH)"
        }
    }
}

