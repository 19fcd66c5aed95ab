import PassgateCore
import CoreMetrics
import EventLoopExecution
import Foundation
import Metrics
import Synchronization

/// The service's own metrics, on an injected factory (a Prometheus registry per instance), so
/// tests and several instances in one process never share counters.
struct PassgateMetrics: Sendable {
    let factory: any MetricsFactory
    let inFlight: Meter
    fileprivate let handles = Handles()

    init(factory: any MetricsFactory) {
        self.factory = factory
        inFlight = Meter(label: "passgate_http_requests_in_flight", dimensions: [], factory: factory)
    }

    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let series = handles.request(RequestKey(route: route, method: method, status: status)) {
            RequestSeries(
                count: handles.counter(factory, "passgate_http_requests_total", ("route", route), ("method", method), ("status", String(status))),
                duration: handles.timer(factory, "passgate_http_request_duration_seconds", ("route", route)))
        }
        series.count.increment()
        series.duration.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// What one answered request updates, found with one lookup by route, method and status (the
    /// status as a number: no string made per request to find its series).
    fileprivate struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    fileprivate struct RequestSeries: Sendable {
        let count: Counter
        let duration: Timer
    }

    /// The series of one provider's calls of one kind, made once (``ProviderGateway`` keeps them per
    /// provider): a carrier call then costs one lookup, of its outcome code, instead of one per series.
    /// A class for the same reason as the gateway's `Lane`: handed around without copying its fields.
    final class CarrierSeries: Sendable {
        let provider: String
        let operation: CarrierCall.Operation
        let latency: Timer
        let billable: Counter
        fileprivate let metrics: PassgateMetrics

        fileprivate init(provider: String, operation: CarrierCall.Operation, latency: Timer, billable: Counter, metrics: PassgateMetrics) {
            self.provider = provider
            self.operation = operation
            self.latency = latency
            self.billable = billable
            self.metrics = metrics
        }

        /// Outcome by normalized code, latency, and the call if it is billable. `call` is of this
        /// series' provider and operation.
        func record(_ call: CarrierCall) {
            guard call.provider == provider, call.operation == operation else {
                return metrics.carrierSeries(provider: call.provider, operation: call.operation).record(call)
            }
            metrics.handles.counter(
                metrics.factory, "passgate_carrier_outcomes_total", ("provider", provider), ("operation", operation.rawValue),
                ("code", call.normalizedCode)
            ).increment()
            latency.recordNanoseconds(Int64(call.latencyMs * 1_000_000))
            if call.billable { billable.increment() }
        }
    }

    /// The series for `provider`'s calls of kind `operation`.
    func carrierSeries(provider: String, operation: CarrierCall.Operation) -> CarrierSeries {
        let provider = ("provider", provider), kind = ("operation", operation.rawValue)
        return CarrierSeries(
            provider: provider.1, operation: operation,
            latency: handles.timer(factory, "passgate_carrier_latency_seconds", provider, kind),
            billable: handles.counter(factory, "passgate_carrier_billable_total", provider, kind),
            metrics: self)
    }

    /// 1 while a base URL's circuit is open or half-open, else 0: the gauge for one base URL.
    func circuitGauge(provider: String, host: String) -> Gauge {
        handles.gauge(factory, "passgate_carrier_circuit_open", ("provider", provider), ("host", host))
    }

    /// Exports the call cap's series at 0 from the start, so that dashboards and alerts find them
    /// before the first request ever queues.
    func registerCallCap(provider: String) {
        recordQueuedCalls(provider: provider, waiting: 0)
        _ = queueTimeouts(provider: provider)
    }

    /// Requests waiting for a slot of the provider's call cap (`maxConcurrentCalls`).
    func recordQueuedCalls(provider: String, waiting: Int) {
        handles.gauge(factory, "passgate_carrier_calls_queued", ("provider", provider)).record(waiting)
    }

    /// A request that found no free slot within `callQueueTimeoutMs` and was answered unsent.
    func recordQueueTimeout(provider: String) {
        queueTimeouts(provider: provider).increment()
    }

    private func queueTimeouts(provider: String) -> Counter {
        handles.counter(factory, "passgate_carrier_queue_timeouts_total", ("provider", provider))
    }

    /// Exports the state store's give-up series at 0 from the start, so an alert can watch them
    /// before the first one.
    func registerStateStore() {
        for operation in ["settle", "release"] { _ = stateStoreGiveUps(operation: operation) }
    }

    /// A write after a provider call (`settle`: store the outcome; `release`: drop the claim) that
    /// still failed after its retries.
    func recordStateStoreGiveUp(operation: String) {
        stateStoreGiveUps(operation: operation).increment()
    }

    private func stateStoreGiveUps(operation: String) -> Counter {
        handles.counter(factory, "passgate_state_store_giveups_total", ("operation", operation))
    }

    /// Exports a listener's front-door series at 0 from the start (an alert can watch them before
    /// the first close), and returns what its channel calls when a limit closes a connection.
    /// Labelled by listener and limit only: never by address.
    func frontDoor(listener: String) -> @Sendable (ConnectionLimitReached) -> Void {
        for reason in ConnectionLimitReached.allCases { _ = frontDoorCloses(listener: listener, reason: reason) }
        return { reason in frontDoorCloses(listener: listener, reason: reason).increment() }
    }

    private func frontDoorCloses(listener: String, reason: ConnectionLimitReached) -> Counter {
        handles.counter(factory, "passgate_connections_closed_by_limit_total", ("listener", listener), ("reason", reason.rawValue))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components  // one 128-bit split, not one per field
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }

    /// Milliseconds with two decimals ("12.34"), rounded half up.
    static func milliseconds(_ duration: Duration) -> String {
        DecimalText.string(scaled: max(0, (nanoseconds(duration) + 5_000) / 10_000), fractionDigits: 2, trimmed: false)
    }

    /// Counters, timers and gauges by label and dimensions, made once. Creating a `Counter` asks the
    /// Prometheus registry every time (its lock, name validation, a label lookup), on every
    /// request, for series that number in the dozens.
    fileprivate final class Handles: Sendable {
        private let counters = Cache<SeriesKey, Counter>()
        private let timers = Cache<SeriesKey, Timer>()
        private let gauges = Cache<SeriesKey, Gauge>()
        private let requests = Cache<RequestKey, RequestSeries>()

        func request(_ key: RequestKey, make: () -> RequestSeries) -> RequestSeries {
            requests.value(for: key, make: make)
        }

        /// A series has up to three dimensions, passed one by one: an array per call (two or three
        /// per request) cost more than the lookup. The array is built only to make a handle.
        typealias Dimension = (String, String)

        func counter(_ factory: any MetricsFactory, _ label: String, _ a: Dimension, _ b: Dimension? = nil, _ c: Dimension? = nil) -> Counter {
            counters.value(for: SeriesKey(label, a, b, c)) { Counter(label: label, dimensions: Self.dimensions(a, b, c), factory: factory) }
        }

        func timer(_ factory: any MetricsFactory, _ label: String, _ a: Dimension, _ b: Dimension? = nil, _ c: Dimension? = nil) -> Timer {
            timers.value(for: SeriesKey(label, a, b, c)) { Timer(label: label, dimensions: Self.dimensions(a, b, c), factory: factory) }
        }

        func gauge(_ factory: any MetricsFactory, _ label: String, _ a: Dimension, _ b: Dimension? = nil, _ c: Dimension? = nil) -> Gauge {
            gauges.value(for: SeriesKey(label, a, b, c)) { Gauge(label: label, dimensions: Self.dimensions(a, b, c), factory: factory) }
        }

        private static func dimensions(_ a: Dimension, _ b: Dimension?, _ c: Dimension?) -> [Dimension] {
            [a] + [b, c].compactMap { $0 }
        }

        private final class Cache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
            /// A bound, should a client invent HTTP methods: beyond it handles are made per use again.
            static var limit: Int { 1_024 }
            private let entries = Mutex<[Key: Value]>([:])

            func value(for key: Key, make: () -> Value) -> Value {
                if let cached = entries.withLock({ $0[key] }) { return cached }
                let made = make()
                return entries.withLock { entries in
                    if let existing = entries[key] { return existing }
                    if entries.count < Self.limit { entries[key] = made }
                    return made
                }
            }
        }

        /// A series by its label and dimension values. The dimension names are fixed per label at
        /// every call site, so the values identify the series; kept as separate fields because
        /// concatenating them into one string key would cost more than the metric update itself.
        private struct SeriesKey: Hashable {
            let label: String
            let first: String
            let second: String
            let third: String

            init(_ label: String, _ a: Dimension, _ b: Dimension?, _ c: Dimension?) {
                self.label = label
                first = a.1
                second = b?.1 ?? ""
                third = c?.1 ?? ""
            }
        }
    }
}
