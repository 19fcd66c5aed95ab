import PassgateCore
import Hummingbird
import Logging
import PassgateConfig
import Prometheus

/// Everything a Passgate application instance is built from.
struct ApplicationDependencies: Sendable {
    var live: LiveSettings
    var exchange: OneTimeTokenExchange
    var metrics: PassgateMetrics
    var readiness: Readiness
    var logger: Logger
    /// Request latencies in the access log and metrics.
    var clock: any PassgateClock = SystemClock()
    /// Traces API requests; `nil` with tracing off.
    var tracer: PassgateTracer?
}

/// Assembles the router: middleware first, then the controllers' routes.
func buildRouter(_ dependencies: ApplicationDependencies) -> Router<PassgateRequestContext> {
    let router = Router(context: PassgateRequestContext.self)
    router.add(middleware: RequestLifecycleMiddleware(
        logger: dependencies.logger, metrics: dependencies.metrics, allowed: AllowedMethods(routes: passgateRoutes), clock: dependencies.clock,
        tracer: dependencies.tracer))
    let phoneNumbers = PhoneNumberController(
        live: dependencies.live, readiness: dependencies.readiness, exchange: dependencies.exchange, logger: dependencies.logger
    )
    router.addRoutes(phoneNumbers.routes, atPath: "/v1")
    HealthController(readiness: dependencies.readiness).register(on: router)
    return router
}

/// The metrics listener's router: `GET /metrics`, kept off the public API port.
func buildMetricsRouter(registry: PrometheusCollectorRegistry, metrics: PassgateMetrics, logger: Logger) -> Router<PassgateRequestContext> {
    let router = Router(context: PassgateRequestContext.self)
    router.add(middleware: RequestLifecycleMiddleware(logger: logger, metrics: metrics, allowed: AllowedMethods(routes: passgateMetricsRoutes)))
    MetricsController(registry: registry).register(on: router)
    return router
}

/// What the admin listener's console reads, beyond what the admin API does.
struct ConsoleDependencies: Sendable {
    /// `admin.console*`: session limits, the `Secure` cookie setting.
    var settings: AdminSettings
    /// Every time the console reads: session expiry, the failure limiter's refill.
    var clock: any PassgateClock = SystemClock()
    /// Failed sign-ins per minute per source address (`server.authFailuresPerMinute`).
    var authFailuresPerMinute: Int
    /// The carrier calls' gateway: its traffic window, circuits and call caps (the overview).
    var gateway: ProviderGateway
}

/// The admin listener's router: the same envelope, ids and access log; reload and readiness
/// details; the console under `/console`.
func buildAdminRouter(
    reloader: ConfigurationReloader, readiness: Readiness, keyHash: [UInt8], metrics: PassgateMetrics, console: ConsoleDependencies,
    checks: ConsoleCheckDependencies? = nil, logger: Logger
) -> Router<PassgateRequestContext> {
    let router = Router(context: PassgateRequestContext.self)
    router.add(middleware: RequestLifecycleMiddleware(
        logger: logger, metrics: metrics, allowed: AllowedMethods(routes: passgateAdminRoutes), clock: console.clock))
    let admin = AdminController(keyHash: keyHash, reloader: reloader, readiness: readiness)
    admin.register(on: router)
    let controller = ConsoleController(
        authenticator: admin.authenticator,
        authFailures: AuthFailureLimiter(perMinute: console.authFailuresPerMinute, clock: console.clock),
        sessions: ConsoleSessions(settings: console.settings, clock: console.clock), readiness: readiness, gateway: console.gateway,
        reloader: reloader, clock: console.clock,
        forcesSecureCookie: console.settings.consoleSecureCookie)
    let consoleRoutes = controller.routes
    // The usage and integration check pages, behind the shell's session gate and headers.
    if let checks { consoleRoutes.addRoutes(ConsoleCheckController(console: controller, dependencies: checks).routes) }
    router.addRoutes(consoleRoutes, atPath: "/console")
    return router
}

/// The routes the API listener serves, as `METHOD /path`: kept next to `buildRouter` so the
/// OpenAPI contract test can compare them with `openapi.yaml`.
public let passgateRoutes: [String] = [
    "POST /v1/phone-number", "POST /v1/phone-number/verify", "GET /healthz", "GET /readyz",
]

/// The metrics listener's routes (`openapi-operations.yaml`, with the admin listener's).
public let passgateMetricsRoutes: [String] = ["GET /metrics"]
