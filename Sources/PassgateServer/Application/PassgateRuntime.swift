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
        let store = try Self.makeStore(configuration.state)
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
        try await group.run()
    }
}

extension PassgateRuntime {
    /// The replay-cache backend. Never a silent fallback: several instances each with their own
    /// memory would let one token be spent once per instance.
    static func makeStore(_ state: StateSettings) throws -> any ExchangeStateStore {
        switch state.backend {
        case .memory: return MemoryStateStore()
        case .redis: throw UnsupportedBackend()
        }
    }

    /// `state.backend: redis` is configured but this build cannot use it.
    public struct UnsupportedBackend: Error, CustomStringConvertible {
        public var description: String {
            "state.backend redis is not available in this build; use memory (one instance) until the Redis backend ships"
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
