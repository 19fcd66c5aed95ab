import CarrierKit
import CarrierSandbox
import CurlTransport
import Hummingbird
import Logging
import Metrics
import NIOCore
import OpenSSLCrypto
import PassgateConfig
import PassgateState
import Prometheus
import ServiceLifecycle
import UnixSignals

/// A whole Passgate process: the embedded sandbox (when enabled), the libcurl engine and the
/// HTTP API, run as one `ServiceGroup` that starts in that order and stops in reverse.
public struct PassgateRuntime: Sendable {
    /// Where the instance listens once it is up.
    public struct Endpoints: Sendable, Equatable {
        public var apiPort: Int
        public var sandboxPort: Int?
    }

    public var configuration: PassgateConfiguration
    public var logSink: any LogSink
    public var clock: any WallClock

    public init(configuration: PassgateConfiguration, logSink: any LogSink = StandardOutputSink(), clock: any WallClock = SystemWallClock()) {
        self.configuration = configuration
        self.logSink = logSink
        self.clock = clock
    }

    /// The logger every component writes through: JSON lines (or text) into `logSink`.
    public func makeLogger(label: String = "passgate") -> Logger {
        let settings = configuration.log
        let sink = logSink
        return Logger(label: label) { label in
            JSONLogHandler(label: label, level: settings.level, sink: sink, json: settings.format == .json)
        }
    }

    /// Runs until a graceful shutdown (one of `signals`, or the task is cancelled).
    /// `onReady` is called once the API listens.
    public func run(signals: [UnixSignal] = [], onReady: @escaping @Sendable (Endpoints) async -> Void = { _ in }) async throws {
        let logger = makeLogger()
        var configuration = configuration
        // First, before anything starts: a refused backend must not leave a sandbox running.
        let store = try Self.makeStore(configuration.state, logger: makeLogger(label: "passgate.state"))
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []

        var sandboxPort: Int?
        if configuration.sandbox.enabled {
            let sandbox = CarrierSandbox(configuration: configuration.sandboxConfiguration, clock: clock, logger: makeLogger(label: "passgate.sandbox"))
            let port = try await sandbox.start()
            sandboxPort = port
            configuration.pointProvidersAtSandbox(port: port)
            services.append(.init(service: sandbox))
        }

        let registry = PrometheusCollectorRegistry()
        let metricsFactory = PrometheusMetricsFactory(registry: registry)
        let curl = CurlHTTPClient(configuration: configuration.curlConfiguration, logger: makeLogger(label: "passgate.transport"), metricsFactory: metricsFactory)
        services.append(.init(service: curl))

        let metrics = PassgateMetrics(factory: metricsFactory)
        let gateway = ProviderGateway(cmcc: CMCCProvider(transport: CurlCarrierTransport(client: curl), clock: clock),
                                      providers: configuration.providers, metrics: metrics)
        let readiness = Readiness(checks: [
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
        let exchange = OneTimeTokenExchange(
            gateway: gateway, store: store, replayKey: try configuration.state.replayKey ?? SecureRandom.bytes(count: 32),
            ttlMs: configuration.state.replayTTLSeconds * 1000, flightMs: configuration.longestCarrierCallMs
        )
        let router = buildRouter(ApplicationDependencies(
            configuration: configuration, exchange: exchange, metrics: metrics, registry: registry, readiness: readiness, logger: logger
        ))
        let server = configuration.server
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(server.host, port: server.port), serverName: "passgate"),
            onServerRunning: { [sandboxPort] channel in
                let port = channel.localAddress?.port ?? server.port
                logger.notice("listening", metadata: ["host": .string(server.host), "port": .stringConvertible(port)])
                await onReady(Endpoints(apiPort: port, sandboxPort: sandboxPort))
            },
            logger: logger
        )
        services.append(.init(service: app))
        // Last in, so first told about a graceful shutdown: /readyz turns 503 at once.
        services.append(.init(service: DrainSignal(readiness: readiness), successTerminationBehavior: .ignore))

        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: signals, logger: logger))
        do {
            try await group.run()
        } catch {
            await (store as? RedisStateStore)?.shutdown()
            throw error
        }
        await (store as? RedisStateStore)?.shutdown()
    }
}

extension PassgateRuntime {
    /// The replay-cache backend. Never a silent fallback: several instances each with their own
    /// memory would let one token be spent once per instance.
    static func makeStore(_ state: StateSettings, logger: Logger) throws -> any ExchangeStateStore {
        switch state.backend {
        case .memory:
            return MemoryStateStore()
        case .redis:
            guard let replayKey = state.replayKey else { throw SharedReplayKeyRequired() }
            // A key of its own for encryption, derived so one configured secret serves both uses.
            let encryptionKey = try Digest.hmacSHA256(key: replayKey, data: Array("passgate replay-cache encryption v1".utf8))
            return try RedisStateStore(url: state.redisURL, encryptionKey: encryptionKey, logger: logger)
        }
    }

    /// Instances sharing Redis must derive the same keys, so the key cannot be generated per process.
    public struct SharedReplayKeyRequired: Error, CustomStringConvertible {
        public var description: String {
            "state.replayKey is required with state.backend redis: every instance must use the same key (openssl rand -hex 32, as env:NAME or file:PATH)"
        }
    }
}

/// Flips readiness to "draining" as soon as a graceful shutdown begins.
struct DrainSignal: Service {
    let readiness: Readiness

    func run() async throws {
        try? await gracefulShutdown()
        readiness.beginDraining()
    }
}
