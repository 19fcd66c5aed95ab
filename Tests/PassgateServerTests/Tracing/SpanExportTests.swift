import CurlTransport
import Logging
import PassgateConfig
import PassgateTestSupport
import Prometheus
import Synchronization
import Testing

@testable import PassgateServer

/// The exporter's queue and loop, without a collector: its `send` is the test's.
@Suite("tracing: span queue and export")
struct SpanExportTests {
    @Test("the queue keeps spans in order up to its capacity, drops and counts the rest, and hands out batches")
    func queue() {
        var queue = SpanQueue<Int>(capacity: 3)
        #expect((1...5).map { queue.append($0) } == [.queued, .queued, .queued, .dropped, .dropped])
        let first = queue.take(2)
        #expect(first.batch == [1, 2] && first.dropped == 2)
        #expect(queue.append(6) == .queued)
        let second = queue.take(10)
        #expect(second.batch == [3, 6] && second.dropped == 0 && queue.isEmpty)
    }

    @Test("a failing collector or a full queue is logged once, then at most once a minute with what happened meanwhile")
    func throttledWarning() {
        var warning = ThrottledWarning()
        let start = ContinuousClock.now
        #expect(warning.occurred(spans: 4, now: start).map { [$0.times, $0.spans] } == [1, 4])
        #expect(warning.occurred(spans: 4, now: start + .seconds(30)) == nil)
        #expect(warning.occurred(spans: 4, now: start + .seconds(59)) == nil)
        #expect(warning.occurred(spans: 2, now: start + .seconds(61)).map { [$0.times, $0.spans] } == [3, 10])
    }

    /// What the fake collector was sent.
    final class Requests: Sendable {
        let sent = Mutex<[CurlHTTPClient.Request]>([])
    }

    static func span(_ index: Int) -> FinishedSpan {
        FinishedSpan(
            traceId: TraceID(high: 1, low: UInt64(index)), spanId: UInt64(index + 1), parentSpanId: nil, traceState: nil, name: "span \(index)",
            kind: .internal, startNanoseconds: 1, endNanoseconds: 2, attributes: [], error: nil)
    }

    @Test("queued spans go out in batches to <endpoint>/v1/traces as protobuf; a full queue and failed exports are counted")
    func export() async throws {
        var settings = TracingSettings()
        settings.endpoint = "http://collector.invalid:4318"
        settings.maxExportBatchSize = 2
        settings.maxQueueSize = 3
        let requests = Requests()
        let registry = PrometheusCollectorRegistry()
        let status = Mutex(200)
        let exporter = OTLPSpanExporter(
            settings: settings,
            send: { request in
                requests.sent.withLock { $0.append(request) }
                return CurlHTTPClient.Response(status: status.withLock { $0 }, headers: [], body: [])
            },
            logger: Logger(label: "test"), metricsFactory: PrometheusMetricsFactory(registry: registry))
        for index in 0..<4 { exporter.finished(Self.span(index)) }
        var warnings = OTLPSpanExporter.Warnings()
        await exporter.exportQueued(&warnings)
        let sent = requests.sent.withLock { $0 }
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { $0.url == "http://collector.invalid:4318/v1/traces" && $0.method == .post })
        #expect(sent.allSatisfy { $0.headers.contains { $0.name == "Content-Type" && $0.value == "application/x-protobuf" } })
        #expect(sent[0].body == OTLPTraceEncoding.request([Self.span(0), Self.span(1)], resource: [("service.name", .string("passgate"))], scopeVersion: "1"))
        status.withLock { $0 = 503 }
        exporter.finished(Self.span(9))
        await exporter.exportQueued(&warnings)
        let metrics = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        #expect(metrics.contains("passgate_trace_spans_dropped_total 1"), "\(metrics)")
        #expect(metrics.contains(#"passgate_trace_exports_total{result="ok"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"passgate_trace_exports_total{result="failed"} 1"#), "\(metrics)")
    }
}
