import CurlTransport
import Logging
import Metrics
import PassgateConfig
import ServiceLifecycle
import Synchronization

/// Sends ended spans to an OTLP/HTTP collector in batches: `POST <endpoint>/v1/traces` with
/// `application/x-protobuf`, through the process's one HTTP client.
///
/// Requests only append to a bounded queue (``SpanQueue``); the service's loop takes what is
/// queued every `exportIntervalMs` and sends it in batches of at most `maxExportBatchSize`, and
/// sends what is left once more when the service group shuts down. A span arriving at a full
/// queue is dropped and counted (`passgate_trace_spans_dropped_total`); a failed export is
/// counted (`passgate_trace_exports_total{result="failed"}`). Both are logged at most once a
/// minute, so a collector that is down does not flood the log.
public final class OTLPSpanExporter: Service, SpanSink {
    /// Sends one export request; the runtime passes the libcurl client, tests a fake.
    public typealias Send = @Sendable (CurlHTTPClient.Request) async throws -> CurlHTTPClient.Response

    private let settings: TracingSettings
    private let send: Send
    private let logger: Logger
    private let resource: [(key: String, value: FinishedSpan.Value)]
    // `Mutex`: appended to by every request's thread; held only to append or take.
    private let queue: Mutex<SpanQueue<FinishedSpan>>
    private let dropped: Counter
    private let exported: Counter
    private let failed: Counter

    public init(settings: TracingSettings, send: @escaping Send, logger: Logger, metricsFactory: any MetricsFactory) {
        self.settings = settings
        self.send = send
        self.logger = logger
        resource = [("service.name", .string(settings.serviceName))]
        queue = Mutex(SpanQueue(capacity: settings.maxQueueSize))
        dropped = Counter(label: "passgate_trace_spans_dropped_total", factory: metricsFactory)
        exported = Counter(label: "passgate_trace_exports_total", dimensions: [("result", "ok")], factory: metricsFactory)
        failed = Counter(label: "passgate_trace_exports_total", dimensions: [("result", "failed")], factory: metricsFactory)
    }

    public func finished(_ span: FinishedSpan) {
        if queue.withLock({ $0.append(span) }) == .dropped { dropped.increment() }
    }

    public func run() async throws {
        var warnings = Warnings()
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            // Woken early by a graceful shutdown, which then flushes below.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(self.settings.exportIntervalMs)) }
            await exportQueued(&warnings)
        }
        await exportQueued(&warnings)
    }

    /// The two warnings the loop may log, each at most once a minute.
    struct Warnings {
        var queueFull = ThrottledWarning()
        var exportFailed = ThrottledWarning()
    }

    /// Sends everything queued now, batch by batch.
    func exportQueued(_ warnings: inout Warnings) async {
        while true {
            let (batch, droppedCount) = queue.withLock { $0.take(settings.maxExportBatchSize) }
            if droppedCount > 0, let (times, spans) = warnings.queueFull.occurred(spans: droppedCount, now: ContinuousClock.now) {
                logger.warning("the trace queue was full: spans were dropped", metadata: [
                    "droppedSpans": .stringConvertible(spans), "exportRounds": .stringConvertible(times),
                    "maxQueueSize": .stringConvertible(settings.maxQueueSize),
                ])
            }
            guard !batch.isEmpty else { return }
            let problem = await export(batch)
            if let problem {
                failed.increment()
                if let (times, spans) = warnings.exportFailed.occurred(spans: batch.count, now: ContinuousClock.now) {
                    logger.warning("trace export failed; spans dropped", metadata: [
                        "error": .string(problem), "failedExports": .stringConvertible(times), "droppedSpans": .stringConvertible(spans),
                    ])
                }
            } else {
                exported.increment()
            }
        }
    }

    /// `nil` when the collector took the batch, else what went wrong (no span content).
    private func export(_ batch: [FinishedSpan]) async -> String? {
        let body = OTLPTraceEncoding.request(batch, resource: resource, scopeVersion: "1")
        let request = CurlHTTPClient.Request(
            method: .post, url: settings.endpoint + "/v1/traces", headers: [("Content-Type", "application/x-protobuf")], body: body,
            connectTimeoutMs: min(1_000, settings.exportTimeoutMs), timeoutMs: settings.exportTimeoutMs)
        do {
            let response = try await send(request)
            return (200..<300).contains(response.status) ? nil : "HTTP \(response.status) from \(settings.endpoint)"
        } catch {
            return "\(error)"
        }
    }
}

/// A warning logged the first time, then at most once a minute with how often it occurred and
/// how many spans it cost since it was last logged.
struct ThrottledWarning {
    private var lastLogged: ContinuousClock.Instant?
    private var times = 0
    private var spans = 0

    /// What to log now, or `nil` while the last one is less than a minute old.
    mutating func occurred(spans: Int, now: ContinuousClock.Instant) -> (times: Int, spans: Int)? {
        times += 1
        self.spans += spans
        if let lastLogged, now - lastLogged < .seconds(60) { return nil }
        defer { (lastLogged, times, self.spans) = (now, 0, 0) }
        return (times, self.spans)
    }
}
