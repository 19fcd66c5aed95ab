import PassgateCore
import CurlTransport
import Foundation
import Hummingbird
import Logging
import Metrics
import PassgateState
import Prometheus
import Synchronization
import Testing

@testable import PassgateServer

/// The last phase of a drain, driven directly: the server still answers, but not new API work.
@Suite("drain phases")
struct DrainPhaseTests {
    @Test("while stopping, API requests get 503 service_draining with Retry-After and no carrier call; /readyz 503, /healthz 200")
    func stoppingRefusesNewWork() async throws {
        let gateway = OneTimeTokenTests.CountingGateway { _ in .success(PhoneNumberOutcome(phoneNumber: "13800138000", carrierTaskId: "T")) }
        let exchange = try OneTimeTokenTests.exchange(gateway, store: MemoryStateStore())
        let readiness = Readiness(checks: [])
        let registry = PrometheusCollectorRegistry()
        let configuration = TestConfiguration.make(sandbox: false)
        let router = buildRouter(ApplicationDependencies(
            live: LiveSettings(RequestSettings(configuration: configuration, generation: 1)), exchange: exchange,
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: registry)),
            readiness: readiness, logger: Logger(label: "test")
        ))
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let server = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let http = CurlHTTPClient()
        func exchangeOnce() async throws -> CurlHTTPClient.Response {
            try await http.send(.init(
                method: .post, url: "http://127.0.0.1:\(port)/v1/phone-number",
                headers: [("Authorization", "Bearer \(TestConfiguration.apiKey)"), ("Content-Type", "application/json")],
                body: Array(#"{"appId":"\#(TestConfiguration.md5App)","token":"STsid00000000000000001drainphase"}"#.utf8)))
        }
        #expect(try await exchangeOnce().status == 200)

        readiness.beginDraining()
        #expect(try await exchangeOnce().status == 200, "still serving while the load balancer takes the instance out")
        #expect(try await http.send(.init(url: "http://127.0.0.1:\(port)/readyz")).status == 503)

        readiness.beginStopping()
        let refused = try await exchangeOnce()
        let body = String(decoding: refused.body, as: UTF8.self)
        #expect(refused.status == 503 && body.contains(#""code":"service_draining""#) && body.contains(#""retryable":true"#), "\(body)")
        #expect(refused.header("Retry-After") == "1")
        #expect(gateway.calls.withLock { $0 } == 1, "no carrier call after stopping began")
        #expect(try await http.send(.init(url: "http://127.0.0.1:\(port)/healthz")).status == 200)
        #expect(try await http.send(.init(url: "http://127.0.0.1:\(port)/readyz")).status == 503)

        await http.shutdown(gracePeriodMs: 0)
        server.cancel()
        _ = try? await server.value
    }
}
