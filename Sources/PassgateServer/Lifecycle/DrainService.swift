import DedicatedThreads
import Logging
import ServiceLifecycle

/// The SIGTERM choreography for a rolling deploy behind a load balancer.
///
/// Registered last in the service group, so it is the first told about a graceful shutdown:
/// 1. `/readyz` turns 503 at once, while every request is still served normally, for
///    `drainSeconds` - the time the load balancer needs to notice and take the instance out;
/// 2. then new API requests get `service_draining` (503, retryable) and this service returns, so
///    the group stops the HTTP server next: it stops accepting and lets in-flight requests
///    (carrier calls included) finish, bounded by the group's graceful-shutdown deadline.
struct DrainService: Service {
    let readiness: Readiness
    let drainSeconds: Int
    let logger: Logger

    func run() async throws {
        // Cancelled instead of shut down: there is nothing to drain.
        guard await ShutdownWait.untilShutdown() == .gracefulShutdown else { return }
        readiness.beginDraining()
        logger.notice("shutdown requested: /readyz answers 503, still serving", metadata: ["drainSeconds": .stringConvertible(drainSeconds)])
        try? await Task.sleep(for: .seconds(drainSeconds))
        readiness.beginStopping()
        logger.notice("drain period over: new requests get service_draining; finishing in-flight requests")
    }
}
