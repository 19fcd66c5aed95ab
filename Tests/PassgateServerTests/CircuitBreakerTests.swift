import PassgateLiveTestSupport
import PassgateCLI
import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Foundation
import Logging
import PassgateConfig
import PassgateProviders
import PassgateTestSupport
import Synchronization
import Testing

@testable import PassgateServer

/// The breaker over the wire: a port that really refuses connections, as libcurl reports it
/// (provably unsent), with the gauge on the metrics listener and the detail on the admin one.
/// Everything else about the breaker runs in-process (`CircuitBreakerInProcessTests`).
@Suite("circuit breaker")
struct CircuitBreakerTests {
    @Test("end to end: refused connections open the circuit, then requests fail fast unsent, visible in metrics and readyz")
    func opensAndFailsFast() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        var configuration = TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:\(port)")
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 3
        configuration.providers[CMCC.providerID]?.circuitOpenMs = 600_000
        try await withRunningPassgate(TestConfiguration.withAdmin(configuration)) { passgate in
            for index in 0..<3 {
                let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidCIRCUIT\(index)"])
                #expect(answer.errorCode == "carrier_unavailable" && (answer.error["message"] as? String)?.contains("could not be reached") == true, "\(answer.body)")
            }
            let fast = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidCIRCUIT9"])
            #expect(fast.status == 503 && fast.errorCode == "carrier_unavailable" && fast.error["retryable"] as? Bool == true)
            #expect((fast.error["message"] as? String)?.contains("pauses calls") == true, "\(fast.body)")
            let metrics = try await passgate.metrics()
            #expect(metrics.contains(#"passgate_carrier_circuit_open{provider="cmcc",host="127.0.0.1:\#(port)"} 1"#), "\(metrics)")
            let ready = try await passgate.readinessDetails()
            #expect(ready.status == 200 && (ready.checks["carrier"] ?? "").contains("circuit open"), "\(ready)")
            // The public answer says ready and nothing more.
            let public_ = try await passgate.send(.get, "/readyz", headers: [])
            #expect(public_.status == 200 && public_.json["checks"] == nil && public_.json["status"] as? String == "ready", "\(public_.body)")
        }
        refusing.release()
    }

}
