import CarrierKit
import CarrierSandbox
import CurlTransport
import Foundation
import Logging
import PassgateConfig
import Synchronization
import Testing

@testable import PassgateServer

@Suite("circuit breaker")
struct CircuitBreakerTests {
    @Test("a circuit opens after the threshold, skips while open, lets one probe through, and closes on success")
    func stateMachine() {
        let now = Mutex<Int64>(0)
        let breaker = CircuitBreaker(threshold: 3, openMs: 1000, nowMilliseconds: { now.withLock { $0 } })
        let url = "https://carrier.test"
        for _ in 0..<2 { breaker.record(url, transportFailure: true) }
        #expect(breaker.permit(url))
        breaker.record(url, transportFailure: false)  // a success resets the count
        for _ in 0..<3 { breaker.record(url, transportFailure: true) }
        #expect(!breaker.permit(url) && breaker.openURLs == [url])
        now.withLock { $0 = 999 }
        #expect(!breaker.permit(url))
        now.withLock { $0 = 1000 }
        #expect(breaker.permit(url))  // the probe
        #expect(!breaker.permit(url))  // only one
        breaker.record(url, transportFailure: true)  // probe failed: open again
        #expect(!breaker.permit(url))
        now.withLock { $0 = 2000 }
        #expect(breaker.permit(url))
        breaker.record(url, transportFailure: false)
        #expect(breaker.permit(url) && breaker.permit(url) && breaker.openURLs.isEmpty)
    }

    @Test("end to end: refused connections open the circuit, then requests fail fast unsent, visible in metrics and readyz")
    func opensAndFailsFast() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        var configuration = TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:\(port)")
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 3
        configuration.providers[CMCC.providerID]?.circuitOpenMs = 600_000
        let passgate = try await RunningPassgate.start(configuration)
        for index in 0..<3 {
            let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidCIRCUIT\(index)"])
            #expect(answer.errorCode == "carrier_unavailable" && (answer.error["message"] as? String)?.contains("could not be reached") == true, "\(answer.body)")
        }
        let fast = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidCIRCUIT9"])
        #expect(fast.status == 503 && fast.errorCode == "carrier_unavailable" && fast.error["retryable"] as? Bool == true)
        #expect((fast.error["message"] as? String)?.contains("pauses calls") == true, "\(fast.body)")
        let metrics = try await passgate.send(.get, "/metrics", headers: [])
        #expect(metrics.body.contains(#"passgate_carrier_circuit_open{provider="cmcc",host="127.0.0.1:\#(port)"} 1"#), "\(metrics.body)")
        let ready = try await passgate.send(.get, "/readyz", headers: [])
        #expect(ready.status == 200 && ((ready.json["checks"] as? [String: String])?["carrier"] ?? "").contains("circuit open"), "\(ready.body)")
        await passgate.stop()
        refusing.release()
    }

    @Test("end to end: once the carrier is back, the probe after the open window succeeds and the circuit closes")
    func closesAfterRecovery() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        var configuration = TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:\(port)")
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 2
        configuration.providers[CMCC.providerID]?.circuitOpenMs = 300
        let passgate = try await RunningPassgate.start(configuration)
        for index in 0..<2 {
            _ = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidCIRCUIT\(index)"])
        }
        var settings = TestConfiguration.make().sandboxConfiguration
        settings.port = port
        refusing.release()
        let sandbox = CarrierSandbox(configuration: settings, logger: Logger(label: "test.sandbox"))
        try await sandbox.start()
        try await Task.sleep(for: .milliseconds(400))
        let token = try await RunningPassgate.mintToken(http: passgate.http, sandbox: "http://127.0.0.1:\(port)", appId: TestConfiguration.md5App)
        let recovered = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
        #expect(recovered.status == 200, "\(recovered.body)")
        let after = try await passgate.send(.get, "/metrics", headers: [])
        #expect(after.body.contains(#"passgate_carrier_circuit_open{provider="cmcc",host="127.0.0.1:\#(port)"} 0"#))
        await passgate.stop()
        await sandbox.shutdown()
    }
}
