import CarrierSandbox
import NIOCore
import NIOEmbedded
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import Prometheus
import ProviderCMCC
import Testing

/// The call cap through the API, in-process: a held call keeps the only slot for as long as the
/// test wants, and the queue wait passes when the test moves the event loop's clock.
@Suite("carrier call cap, in-process")
struct CallLimiterInProcessTests {
    @Test("over the cap past callQueueTimeoutMs, a request gets 503 carrier_unavailable unsent; its token still works")
    func overCapAnswersUnsent() async throws {
        var configuration = InProcessPassgate.cmccConfiguration(timeoutMs: 20_000)
        configuration.providers[CMCC.providerID]?.maxConcurrentCalls = 1
        configuration.providers[CMCC.providerID]?.callQueueTimeoutMs = 200
        let sandbox = InProcessPassgate.sandbox()
        let transport = ScriptedTransport(behind: sandbox)
        transport.then(.held(.carrier), host: "sandbox.invalid")
        let loop = NIOAsyncTestingEventLoop()
        let registry = PrometheusCollectorRegistry()
        @Sendable func metrics() -> String { InProcessPassgate.metrics(registry) }
        try await InProcessPassgate.with(configuration, carrier: transport, registry: registry, eventLoops: loop) { passgate in
            let md5 = TestConfiguration.md5App
            #expect(metrics().contains(#"passgate_carrier_queue_timeouts_total{provider="cmcc"} 0"#), "exported before any queueing: \(metrics())")
            #expect(metrics().contains(#"passgate_carrier_calls_queued{provider="cmcc"} 0"#))
            let first = try sandbox.mintToken(appId: md5, phoneNumber: "13712345678")
            let second = try sandbox.mintToken(appId: md5, phoneNumber: "13812345678")

            let slow = try passgate.start("/v1/phone-number", ["appId": md5, "token": first])
            await transport.waitUntilHeld()  // the first request holds the only slot
            let shed = try passgate.start("/v1/phone-number", ["appId": md5, "token": second])
            try #require(await eventually { metrics().contains(#"passgate_carrier_calls_queued{provider="cmcc"} 1"#) })
            await loop.advanceTime(by: .milliseconds(199))
            #expect(metrics().contains(#"passgate_carrier_calls_queued{provider="cmcc"} 1"#), "still waiting before callQueueTimeoutMs")
            await loop.advanceTime(by: .milliseconds(1))
            let refused = try await shed.value.answer
            #expect(refused.status == 503 && refused.errorCode == "carrier_unavailable" && refused.error["retryable"] as? Bool == true, "\(refused.body)")
            #expect(refused.header("Retry-After") == "1")
            let message = try #require(refused.error["message"] as? String)
            #expect(message.contains("providers.cmcc.maxConcurrentCalls") && message.contains("200 ms") && message.contains("not sent"), "\(message)")
            #expect(metrics().contains(#"passgate_carrier_queue_timeouts_total{provider="cmcc"} 1"#), "\(metrics())")

            transport.letGo()
            let held = try await slow.value.answer
            #expect(held.status == 200 && held.json["phoneNumber"] as? String == "13712345678", "\(held.body)")
            #expect(sandbox.carrierCalls == 1, "the shed request never reached the carrier")
            let retry = try await passgate.post("/v1/phone-number", ["appId": md5, "token": second])
            #expect(retry.status == 200 && retry.json["phoneNumber"] as? String == "13812345678", "\(retry.body)")
            #expect(metrics().contains(#"passgate_carrier_calls_queued{provider="cmcc"} 0"#), "\(metrics())")
        }
        await loop.run()
        await loop.shutdownGracefully()
    }
}
