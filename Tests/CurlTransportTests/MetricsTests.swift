import CurlTransport
import MetricsTestKit
import Testing

@Suite("Metrics")
struct MetricsTests {
    @Test("metrics count transfers, new versus reused connections, failures by kind and in-flight")
    func metricsReflectTraffic() async throws {
        let metrics = TestMetrics()
        let closedPort = try ProcessInfoHelpers.closedPort()
        try await withServerAndClient(metrics: metrics) { server, client in
            for _ in 0..<5 {
                _ = try await client.send(.init(url: server.url("/status/200")))
            }
            _ = await transportError { try await client.send(.init(url: "http://127.0.0.1:\(closedPort)/")) }

            let p = "passgate_transport_"
            #expect(server.stats.snapshot.accepted == 1)
            #expect(try metrics.expectCounter(p + "connections_opened_total").totalValue == 1)
            #expect(try metrics.expectCounter(p + "connections_reused_total").totalValue == 4)
            #expect(try metrics.expectCounter(p + "transfers_started_total").totalValue == 6)
            #expect(try metrics.expectCounter(p + "transfers_completed_total").totalValue == 5)
            let failed = try metrics.expectCounter(
                p + "transfers_failed_total", [("kind", "connection_refused"), ("delivery", "not_sent")])
            #expect(failed.totalValue == 1)
            #expect(try metrics.expectTimer(p + "transfer_duration_seconds").values.count == 6)
            #expect(try metrics.expectGauge(p + "transfers_in_flight").lastValue == 0)
        }
    }
}
