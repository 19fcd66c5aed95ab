/// `tracing:` - spans for each API request, exported over OTLP/HTTP (docs/monitoring.md, "Tracing").
public struct TracingSettings: Sendable, Equatable {
    /// Off by default: no tracer, no exporter, and no tracing work on any request.
    public var enabled = false
    /// The collector's OTLP/HTTP base URL; spans are posted to `<endpoint>/v1/traces` as protobuf.
    public var endpoint = "http://127.0.0.1:4318"
    /// The share of traces recorded when the caller sent no sampled `traceparent`, 0-1.
    public var samplingRatio = 1.0
    /// The resource's `service.name`.
    public var serviceName = "passgate"
    /// How often queued spans are sent.
    public var exportIntervalMs = 1_000
    /// The most spans in one export request.
    public var maxExportBatchSize = 512
    /// Spans waiting for export; past this, new spans are dropped (`passgate_trace_spans_dropped_total`).
    public var maxQueueSize = 2_048
    /// How long one export request may take.
    public var exportTimeoutMs = 5_000

    public init() {}
}
