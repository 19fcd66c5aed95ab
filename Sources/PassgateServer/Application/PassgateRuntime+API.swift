import PassgateCore
import EventLoopExecution
import Hummingbird
import HummingbirdCore
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

extension PassgateRuntime {
    /// What the API listener serves, assembled one way for `run` and for `inProcessApplication`.
    struct API {
        var router: Router<PassgateRequestContext>
        var gateway: ProviderGateway
        /// The one-time-token exchange the routes use (the console's integration check uses it too).
        var exchange: OneTimeTokenExchange
        var live: LiveSettings
        var readiness: Readiness
    }

    /// The gateway over `transport`, the replay cache over `store`, the readiness checks and the
    /// API router, from this runtime's configuration. The call caps' queue time limits run on
    /// `eventLoops`.
    func makeAPI(
        transport: any CarrierTransport, store: any ExchangeStateStore, monitor: StateStoreMonitor, audit: AuditLogWriter?,
        metrics: PassgateMetrics, eventLoops: any EventLoopGroup, logger: Logger, tracer: PassgateTracer? = nil
    ) throws -> API {
        let gateway = ProviderGateway(
            registry: configuration.registry, providers: configuration.providers, transport: transport, clock: clock,
            metrics: metrics, audit: audit ?? NoAuditSink(), timers: eventLoops, tracer: tracer)
        let readiness = Self.readiness(gateway: gateway, monitor: monitor, audit: audit)
        let state = configuration.state
        let exchange = try OneTimeTokenExchange(
            gateway: gateway, store: store, replayKey: try state.replayKey ?? SecureRandom.bytes(count: 32), ttlMs: state.replayTTLSeconds * 1000,
            timing: .init(leaseMs: state.claimLeaseMs, inFlightWaitMs: state.inFlightWaitMs), timers: eventLoops, metrics: metrics, tracer: tracer
        )
        let live = LiveSettings(RequestSettings(configuration: configuration, generation: 1, clock: clock))
        let router = buildRouter(ApplicationDependencies(
            live: live, exchange: exchange, metrics: metrics, readiness: readiness, logger: logger, clock: clock, tracer: tracer))
        return API(router: router, gateway: gateway, exchange: exchange, live: live, readiness: readiness)
    }

    /// The API listener's application as `run` serves it, with `transport` in place of libcurl,
    /// the in-memory replay cache, and no audit log, admin or metrics listener: what
    /// HummingbirdTesting's `.router` mode drives in-process, where a socket adds nothing.
    /// The configuration's `state` backend is not used. Tests read the metrics from `registry`
    /// (what the metrics listener would serve), and pass an `NIOAsyncTestingEventLoop` as
    /// `eventLoops` to move the call caps' queue time limits by hand. An `audit` writer the test
    /// made (and flushes and shuts down itself) records the carrier calls as `serve`'s would.
    /// With `spans`, requests are traced as with `tracing.enabled` (sampled by
    /// `tracing.samplingRatio`) and their spans go there instead of to an OTLP exporter.
    public func inProcessApplication(
        transport: any CarrierTransport, registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        eventLoops: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, audit: AuditLogWriter? = nil, spans: (any SpanSink)? = nil
    ) throws -> some ApplicationProtocol {
        let logger = makeLogger()
        let metricsFactory = PrometheusMetricsFactory(registry: registry)
        let store = MemoryStateStore(clock: clock)
        let monitor = StateStoreMonitor(store: store, backend: StateSettings.Backend.memory.rawValue, factory: metricsFactory, logger: logger)
        let api = try makeAPI(
            transport: transport, store: store, monitor: monitor, audit: audit, metrics: PassgateMetrics(factory: metricsFactory),
            eventLoops: eventLoops, logger: logger,
            tracer: spans.map { PassgateTracer(sampler: TraceSampler(ratio: configuration.tracing.samplingRatio), sink: $0) })
        return Application(router: api.router, configuration: .init(serverName: "passgate"), logger: logger)
    }
}
