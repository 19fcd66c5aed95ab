import CarrierKit
import CoreMetrics
import Foundation
import Metrics

/// The service's own metrics, on an injected factory (a Prometheus registry per instance), so
/// tests and several instances in one process never share counters.
struct PassgateMetrics: Sendable {
    let factory: any MetricsFactory
    let inFlight: Meter

    init(factory: any MetricsFactory) {
        self.factory = factory
        inFlight = Meter(label: "passgate_http_requests_in_flight", dimensions: [], factory: factory)
    }

    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        Counter(label: "passgate_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Timer(label: "passgate_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(Self.nanoseconds(duration))
    }

    /// Outcomes by provider, operation and normalized code; latency; billable calls.
    func recordCarrierCall(_ call: CarrierCall) {
        let base = [("provider", call.provider), ("operation", call.operation.rawValue)]
        Counter(label: "passgate_carrier_outcomes_total", dimensions: base + [("code", call.normalizedCode)], factory: factory).increment()
        Timer(label: "passgate_carrier_latency_seconds", dimensions: base, factory: factory)
            .recordNanoseconds(Int64(call.latencyMs * 1_000_000))
        if call.billable {
            Counter(label: "passgate_carrier_billable_total", dimensions: base, factory: factory).increment()
        }
    }

    /// 1 while a base URL's circuit is open or half-open, else 0.
    func recordCircuit(provider: String, host: String, open: Bool) {
        Gauge(label: "passgate_carrier_circuit_open", dimensions: [("provider", provider), ("host", host)], factory: factory).record(open ? 1 : 0)
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Milliseconds with two decimals ("12.34"), rounded half up; integer arithmetic because
    /// `String(format:)` costs a locale lookup on every request line.
    static func milliseconds(_ duration: Duration) -> String {
        let hundredths = max(0, (nanoseconds(duration) + 5_000) / 10_000)
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
