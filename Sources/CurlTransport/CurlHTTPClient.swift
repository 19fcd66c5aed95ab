import CoreMetrics
import DedicatedThreads
import Logging
import ServiceLifecycle

/// An async HTTP client over libcurl's multi interface.
///
/// One client owns one engine: a curl multi handle driven by one dedicated OS thread. ``send(_:)``
/// hands the request to that thread and suspends; it never blocks a Swift concurrency thread.
/// Connections are kept alive and reused across calls (``Configuration/maxConnections``), at most
/// ``Configuration/maxConcurrentTransfers`` transfers run at once and the rest wait in a queue.
///
/// Every failure is a ``CurlTransportError`` whose ``CurlTransportError/delivery`` says whether the
/// request may have reached the server: retry one-time tokens only on ``CurlTransportError/Delivery/notSent``.
///
/// Lifecycle: the engine starts in the initialiser. Run the client in a `ServiceGroup` (it is a
/// `Service`: graceful shutdown drains in-flight calls for ``Configuration/shutdownGracePeriodMs``),
/// or call ``shutdown(gracePeriodMs:)`` yourself, for example at the end of a CLI command. A client
/// that is simply released stops its engine immediately (nothing can be in flight then: every
/// running ``send(_:)`` keeps the client alive).
public final class CurlHTTPClient: Service, Sendable {
    /// The configuration the client was created with.
    public let configuration: Configuration
    let engine: CurlEngine

    /// Creates a client and starts its engine thread.
    ///
    /// - Parameters:
    ///   - configuration: timeouts, pool sizes, TLS and proxy settings.
    ///   - logger: receives engine start/stop and per-failure debug records (never bodies or headers).
    ///   - metricsFactory: where the `passgate_transport_*` metrics go; `nil` uses the global
    ///     `MetricsSystem.factory`. Pass one explicitly to keep tests independent of the global bootstrap.
    public init(
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "passgate.transport"),
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.configuration = configuration
        let metrics = CurlTransportMetrics(factory: metricsFactory ?? MetricsSystem.factory)
        self.engine = CurlEngine(configuration: configuration, logger: logger, metrics: metrics)
        engine.start()
    }

    deinit {
        engine.beginShutdown(gracePeriodMs: 0)
    }

    /// Sends `request` and returns the complete response; any HTTP status is a response.
    ///
    /// Cancelling the calling task removes the transfer from libcurl at once (closing its
    /// connection if it was mid-exchange) and throws a ``CurlTransportError`` of kind
    /// ``CurlTransportError/Kind/cancelled``, whose delivery tells whether the request had left.
    ///
    /// - Throws: ``CurlTransportError`` only.
    public func send(_ request: Request) async throws -> Response {
        let engine = self.engine
        let id = engine.register()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                engine.submit(CurlEngine.Submission(id: id, request: request, continuation: continuation))
            }
        } onCancel: {
            engine.cancel(id)
        }
    }

    /// Stops accepting requests (new calls fail with kind `shutdown`, delivery `notSent`), lets
    /// running and queued calls finish for up to `gracePeriodMs`, fails the rest with kind
    /// `shutdown`, and returns once the engine thread has exited. Safe to call more than once.
    ///
    /// - Parameter gracePeriodMs: defaults to ``Configuration/shutdownGracePeriodMs``; 0 fails
    ///   in-flight calls at once.
    public func shutdown(gracePeriodMs: Int? = nil) async {
        engine.beginShutdown(gracePeriodMs: gracePeriodMs ?? configuration.shutdownGracePeriodMs)
        await engine.waitUntilStopped()
    }

    /// Runs until the service group shuts down gracefully (then drains for
    /// ``Configuration/shutdownGracePeriodMs``), the task is cancelled (then stops at once), or
    /// ``shutdown(gracePeriodMs:)`` is called elsewhere.
    public func run() async throws {
        let engine = self.engine
        let gracePeriodMs = configuration.shutdownGracePeriodMs
        await engine.exited.runService(
            onGracefulShutdown: { engine.beginShutdown(gracePeriodMs: gracePeriodMs) },
            onCancellation: { engine.beginShutdown(gracePeriodMs: 0) })
    }
}
