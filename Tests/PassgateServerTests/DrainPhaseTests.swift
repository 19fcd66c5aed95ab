import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PassgateCore
import PassgateState
import Prometheus
import Synchronization
import Testing

@testable import PassgateServer

/// The last phase of a drain, driven directly on the router in-process: the server still
/// answers, but not new API work. (That the listener keeps answering while draining, and how
/// SIGTERM leads here, is the wire's part: `passgate serve`'s drain tests.)
@Suite("drain phases")
struct DrainPhaseTests {
    @Test("while stopping, API requests get 503 service_draining with Retry-After and no carrier call; /readyz 503, /healthz 200")
    func stoppingRefusesNewWork() async throws {
        let gateway = OneTimeTokenTests.CountingGateway { _ in .success(PhoneNumberOutcome(phoneNumber: "13800138000", carrierTaskId: "T")) }
        let exchange = try OneTimeTokenTests.exchange(gateway, store: MemoryStateStore())
        let readiness = Readiness(checks: [])
        let configuration = TestConfiguration.make(sandbox: false)
        let router = buildRouter(ApplicationDependencies(
            live: LiveSettings(RequestSettings(configuration: configuration, generation: 1)), exchange: exchange,
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())),
            readiness: readiness, logger: Logger(label: "test")
        ))
        try await Application(router: router).test(.router) { client in
            func exchangeOnce() async throws -> TestResponse {
                try await client.execute(
                    uri: "/v1/phone-number", method: .post,
                    headers: [.authorization: "Bearer \(TestConfiguration.apiKey)", .contentType: "application/json"],
                    body: ByteBuffer(string: #"{"appId":"\#(TestConfiguration.md5App)","token":"STsid00000000000000001drainphase"}"#))
            }
            #expect(try await exchangeOnce().status == .ok)

            readiness.beginDraining()
            #expect(try await exchangeOnce().status == .ok, "still serving while the load balancer takes the instance out")
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .serviceUnavailable)

            readiness.beginStopping()
            let refused = try await exchangeOnce()
            let body = String(buffer: refused.body)
            #expect(refused.status == .serviceUnavailable && body.contains(#""code":"service_draining""#) && body.contains(#""retryable":true"#), "\(body)")
            #expect(refused.headers[.retryAfter] == "1")
            #expect(gateway.calls.withLock { $0 } == 1, "no carrier call after stopping began")
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .serviceUnavailable)
        }
    }
}
