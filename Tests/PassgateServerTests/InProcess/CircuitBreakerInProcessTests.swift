import CarrierSandbox
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderCMCC
import Prometheus
import Testing

/// The breaker seen through the API, in-process: a scripted carrier (or the CMCC emulator, for its
/// error pages) fails or answers each call, and the breaker's open window passes when the test
/// moves the manual clock.
@Suite("circuit breaker, in-process")
struct CircuitBreakerInProcessTests {
    static let first = "echo-1.invalid", second = "echo-2.invalid"
    static let clockStart: Int64 = 1_764_000_000_000

    static func echoCarrier() -> EchoCarrier { EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber) }

    /// The echo provider's calls to the first URL, its circuit opening after `threshold` failures for `openMs`.
    static func breaker(threshold: Int, openMs: Int = 600_000) throws -> PassgateConfiguration {
        try InProcessPassgate.configuration(echoBaseURLs: ["https://\(first)"]) {
            $0.circuitFailureThreshold = threshold
            $0.circuitOpenMs = openMs
        }
    }

    @Test("unsent failures open the circuit at the threshold; then requests fail fast, unsent, and the gauge says open")
    func opensAndFailsFast() async throws {
        let transport = ScriptedTransport(behind: Self.echoCarrier())
        transport.always(.unsent)
        let configuration = try Self.breaker(threshold: 3)
        let registry = PrometheusCollectorRegistry()
        try await InProcessPassgate.with(configuration, carrier: transport, clock: ManualClock(milliseconds: Self.clockStart), registry: registry) { passgate in
            for index in 0..<3 {
                let answer = try await passgate.phoneNumber("echo-token-open-\(index)")
                #expect(answer.status == 503 && answer.errorCode == "carrier_unavailable", "\(answer.body)")
                #expect((answer.error["message"] as? String)?.contains("could not be reached") == true, "\(answer.body)")
            }
            #expect(transport.requests.count == 3)
            let fast = try await passgate.phoneNumber("echo-token-open-9")
            #expect(fast.status == 503 && fast.errorCode == "carrier_unavailable" && fast.error["retryable"] as? Bool == true, "\(fast.body)")
            #expect((fast.error["message"] as? String)?.contains("pauses calls") == true, "\(fast.body)")
            #expect(transport.requests.count == 3, "the open circuit sent nothing")
            let metrics = InProcessPassgate.metrics(registry)
            #expect(metrics.contains(#"passgate_carrier_circuit_open{provider="echo",host="\#(Self.first)"} 1"#), "\(metrics)")
        }
    }

    @Test("once the open window has passed on the clock, the probe reaches the recovered carrier and the circuit closes")
    func closesAfterRecovery() async throws {
        let transport = ScriptedTransport(behind: Self.echoCarrier())
        transport.always(.unsent)
        let configuration = try Self.breaker(threshold: 2, openMs: 300)
        let clock = ManualClock(milliseconds: Self.clockStart)
        let registry = PrometheusCollectorRegistry()
        try await InProcessPassgate.with(configuration, carrier: transport, clock: clock, registry: registry) { passgate in
            for index in 0..<2 { _ = try await passgate.phoneNumber("echo-token-close-\(index)") }
            transport.always(.carrier)
            let early = try await passgate.phoneNumber("echo-token-close-3")
            #expect(early.status == 503 && (early.error["message"] as? String)?.contains("pauses calls") == true, "\(early.body)")
            #expect(transport.requests.count == 2, "still open: nothing sent before the window passes")

            clock.advance(milliseconds: 299)
            #expect(try await passgate.phoneNumber("echo-token-close-4").status == 503)
            clock.advance(milliseconds: 1)
            let recovered = try await passgate.phoneNumber("echo-token-close-5")
            #expect(recovered.status == 200, "\(recovered.body)")
            #expect(transport.requests.count == 3, "one probe")
            #expect(InProcessPassgate.metrics(registry).contains(#"passgate_carrier_circuit_open{provider="echo",host="\#(Self.first)"} 0"#))
            #expect(try await passgate.phoneNumber("echo-token-close-6").status == 200, "closed: calls flow again")
        }
    }

    @Test("HTML pages and 5xx replies, as CMCC's front end sends them, count as failures: the circuit opens and the next request fails fast, unsent",
          arguments: [SandboxFault.html, .http502, .http500])
    func errorPagesOpenTheCircuit(fault: SandboxFault) async throws {
        var configuration = InProcessPassgate.cmccConfiguration()
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 2
        configuration.providers[CMCC.providerID]?.circuitOpenMs = 600_000
        let sandbox = InProcessPassgate.sandbox()
        sandbox.setFault(fault)
        try await InProcessPassgate.with(configuration, carrier: sandbox, clock: ManualClock(milliseconds: Self.clockStart)) { passgate in
            for index in 0..<2 {
                let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidPAGE\(index)"])
                #expect(answer.errorCode == "carrier_bad_response", "\(answer.body)")
            }
            let fast = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidPAGE9"])
            #expect(fast.status == 503 && fast.errorCode == "carrier_unavailable" && fast.error["retryable"] as? Bool == true, "\(fast.body)")
            #expect(sandbox.carrierCalls == 2)
        }
    }

    @Test("a carrier answering its own error codes keeps the circuit closed: every request reaches it")
    func carrierCodesAreNotFailures() async throws {
        let transport = ScriptedTransport(behind: Self.echoCarrier())
        transport.always(.json(#"{"code":"7","ticket":"t-sig"}"#))
        let configuration = try Self.breaker(threshold: 1)
        let registry = PrometheusCollectorRegistry()
        try await InProcessPassgate.with(configuration, carrier: transport, clock: ManualClock(milliseconds: Self.clockStart), registry: registry) { passgate in
            for index in 0..<3 {
                let answer = try await passgate.phoneNumber("echo-token-code-\(index)")
                #expect(answer.status == 502 && answer.errorCode == "carrier_error", "\(answer.body)")
            }
            #expect(transport.requests.count == 3)
            #expect(InProcessPassgate.metrics(registry).contains(#"passgate_carrier_circuit_open{provider="echo",host="\#(Self.first)"} 0"#))
        }
    }

    /// The defect: the circuit let a probe through, then the call cap refused that request, and no
    /// result was ever recorded, so the URL stayed half-open (skipped) until a restart. The held
    /// call keeps the only slot for as long as the test wants, whatever the machine's load.
    @Test("a probe refused by the call cap does not leave the base URL skipped until restart")
    func probeRefusedByCallCap() async throws {
        let transport = ScriptedTransport(behind: Self.echoCarrier())
        transport.always(.unsent, host: Self.first)
        transport.then(.held(.carrier), host: Self.second)
        let configuration = try InProcessPassgate.configuration(echoBaseURLs: ["https://\(Self.first)", "https://\(Self.second)"]) {
            $0.circuitFailureThreshold = 1
            $0.circuitOpenMs = 300
            $0.maxConcurrentCalls = 1
            $0.callQueueTimeoutMs = 0
        }
        let clock = ManualClock(milliseconds: Self.clockStart)
        let registry = PrometheusCollectorRegistry()
        try await InProcessPassgate.with(configuration, carrier: transport, clock: clock, registry: registry) { passgate in
            // 1: the first URL refuses (its circuit opens); the call fails over to the second and holds the only slot.
            let held = try passgate.start("/v1/phone-number", ["appId": InProcessPassgate.echoApp, "token": "echo-token-probe-1"])
            await transport.waitUntilHeld()
            #expect(InProcessPassgate.metrics(registry).contains(#"passgate_carrier_circuit_open{provider="echo",host="\#(Self.first)"} 1"#))
            clock.advance(milliseconds: 301)  // past circuitOpenMs: the next call to the first URL is its probe

            // 2: the probe finds no free slot and is answered unsent.
            let refused = try await passgate.phoneNumber("echo-token-probe-2")
            #expect(refused.status == 503 && refused.errorCode == "carrier_unavailable", "\(refused.body)")
            #expect((refused.error["message"] as? String)?.contains("maxConcurrentCalls") == true, "\(refused.body)")
            #expect(transport.requests(host: Self.first).count == 1, "the refused probe was not sent")

            // 3: the first URL comes back; the next request must probe it (not skip it as half-open) and close the circuit.
            transport.always(.carrier, host: Self.first)
            transport.letGo()
            #expect(try await held.value.status == 200)
            let recovered = try await passgate.phoneNumber("echo-token-probe-3")
            #expect(recovered.status == 200, "\(recovered.body)")
            #expect(transport.requests(host: Self.first).count == 2 && transport.requests(host: Self.second).count == 1)
            #expect(InProcessPassgate.metrics(registry).contains(#"passgate_carrier_circuit_open{provider="echo",host="\#(Self.first)"} 0"#))
        }
    }
}
