import CurlTransport
import Metrics
import PassgateConfig

extension PassgateRuntime {
    /// The tracer over an OTLP exporter that sends through `curl`, when `tracing.enabled`; `nil`
    /// otherwise, and then no request does any tracing work.
    func makeTracing(curl: CurlHTTPClient, metricsFactory: any MetricsFactory) -> (tracer: PassgateTracer, exporter: OTLPSpanExporter)? {
        let settings = configuration.tracing
        guard settings.enabled else { return nil }
        let exporter = OTLPSpanExporter(
            settings: settings, send: { try await curl.send($0) }, logger: makeLogger(label: "passgate.tracing"), metricsFactory: metricsFactory)
        return (PassgateTracer(sampler: TraceSampler(ratio: settings.samplingRatio), sink: exporter), exporter)
    }
}
