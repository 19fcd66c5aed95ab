import CoreMetrics

/// The client's swift-metrics instruments, all prefixed `passgate_transport_`.
///
/// Built from an explicit factory so tests (and several clients in one process) never need the
/// global `MetricsSystem` bootstrap.
struct CurlTransportMetrics: Sendable {
    static let prefix = "passgate_transport_"

    let factory: any MetricsFactory
    /// Transfers handed to libcurl.
    let started: Counter
    /// Transfers that produced an HTTP response (any status).
    let completed: Counter
    /// New TCP connections, from `CURLINFO_NUM_CONNECTS`.
    let connectionsOpened: Counter
    /// Transfers that ran on a kept-alive connection.
    let connectionsReused: Counter
    /// Transfers currently on the multi handle.
    let inFlight: Gauge
    /// Requests waiting for a slot under `maxConcurrentTransfers`.
    let queued: Gauge
    /// Wall time of started transfers, success or failure.
    let duration: Timer
    /// Transfers curl kept past their deadline (socket loop): nudged so curl times them out itself.
    let watchdogNudged: Counter
    /// ...and still running a second later, so failed by the engine as timed out.
    let watchdogFailed: Counter

    init(factory: any MetricsFactory) {
        let p = Self.prefix
        self.factory = factory
        self.started = Counter(label: p + "transfers_started_total", factory: factory)
        self.completed = Counter(label: p + "transfers_completed_total", factory: factory)
        self.connectionsOpened = Counter(label: p + "connections_opened_total", factory: factory)
        self.connectionsReused = Counter(label: p + "connections_reused_total", factory: factory)
        self.inFlight = Gauge(label: p + "transfers_in_flight", factory: factory)
        self.queued = Gauge(label: p + "transfers_queued", factory: factory)
        self.duration = Timer(label: p + "transfer_duration_seconds", factory: factory)
        self.watchdogNudged = Counter(label: p + "watchdog_total", dimensions: [("action", "nudged")], factory: factory)
        self.watchdogFailed = Counter(label: p + "watchdog_total", dimensions: [("action", "failed")], factory: factory)
    }

    /// Counts one failed call under `kind` and `delivery` dimensions (bounded label sets).
    func failed(_ error: CurlTransportError) {
        Counter(
            label: Self.prefix + "transfers_failed_total",
            dimensions: [("kind", error.shortDescription), ("delivery", error.delivery.rawValue)],
            factory: factory
        ).increment()
    }
}
