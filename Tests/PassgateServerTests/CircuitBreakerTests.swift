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

    @Test("end to end: once the carrier is back, the probe after the open window succeeds and the circuit closes")
    func closesAfterRecovery() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        var configuration = TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:\(port)")
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 2
        configuration.providers[CMCC.providerID]?.circuitOpenMs = 300
        try await withRunningPassgate(configuration) { passgate in
            for index in 0..<2 {
                _ = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidCIRCUIT\(index)"])
            }
            var settings = TestConfiguration.make().sandboxConfiguration
            settings.port = port
            refusing.release()
            let sandbox = CarrierSandbox(configuration: settings, registry: .builtIn, logger: Logger(label: "test.sandbox"))
            try await sandbox.start()
            try await Task.sleep(for: .milliseconds(400))
            let token = try await RunningPassgate.mintToken(http: passgate.http, sandbox: "http://127.0.0.1:\(port)", appId: TestConfiguration.md5App)
            let recovered = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
            #expect(recovered.status == 200, "\(recovered.body)")
            let after = try await passgate.metrics()
            #expect(after.contains(#"passgate_carrier_circuit_open{provider="cmcc",host="127.0.0.1:\#(port)"} 0"#))
            await sandbox.shutdown()
        }
    }

    @Test("end to end: HTML pages and 5xx replies count as failures, so the circuit opens and later requests fail fast, unsent",
          arguments: ["html", "http502"])
    func errorPagesOpenTheCircuit(fault: String) async throws {
        var configuration = TestConfiguration.make()
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 2
        configuration.providers[CMCC.providerID]?.circuitOpenMs = 600_000
        try await withRunningPassgate(configuration) { passgate in
            try await passgate.setFault(fault)
            for index in 0..<2 {
                let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidPAGE\(index)"])
                #expect(answer.errorCode == "carrier_bad_response", "\(answer.body)")
            }
            let before = try await passgate.sandboxCalls()
            let fast = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidPAGE9"])
            #expect(fast.status == 503 && fast.errorCode == "carrier_unavailable" && fast.error["retryable"] as? Bool == true, "\(fast.body)")
            #expect(try await passgate.sandboxCalls() == before)
        }
    }

    @Test("end to end: a carrier answering its own error codes keeps the circuit closed")
    func carrierCodesAreNotFailures() async throws {
        var configuration = TestConfiguration.make()
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 1
        try await withRunningPassgate(TestConfiguration.withAdmin(configuration)) { passgate in
            for index in 0..<3 {
                let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidUNKNOWN\(index)"])
                #expect(answer.errorCode == "token_invalid", "\(answer.body)")
            }
            #expect(try await passgate.readinessDetails().checks["carrier"] == "ok")
        }
    }

    /// The defect: the circuit let a probe through, then the call cap refused that request, and no
    /// result was ever recorded, so the URL stayed half-open (skipped) until a restart.
    @Test("end to end: a probe refused by the call cap does not leave the base URL skipped until restart")
    func probeRefusedByCallCap() async throws {
        let refusing = try RefusingPort()
        let slowSettings = { () -> SandboxConfiguration in
            var settings = TestConfiguration.make().sandboxConfiguration
            settings.port = 0
            // Long enough that the held call still has the only slot when the probe arrives: in a
            // loaded test process the probe's handler may start seconds after the test sends it.
            settings.latencyMs = 6000
            return settings
        }()
        let slow = CarrierSandbox(configuration: slowSettings, registry: .builtIn, logger: Logger(label: "test.slow"))
        let slowPort = try await slow.start()
        let first = "http://127.0.0.1:\(refusing.port)", second = "http://127.0.0.1:\(slowPort)"
        var configuration = TestConfiguration.make(sandbox: false, timeoutMs: 10_000)
        configuration.providers[CMCC.providerID]?.baseURLs = [first, second]
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 1
        configuration.providers[CMCC.providerID]?.circuitOpenMs = 300
        configuration.providers[CMCC.providerID]?.maxConcurrentCalls = 1
        configuration.providers[CMCC.providerID]?.callQueueTimeoutMs = 0
        try await withRunningPassgate(configuration) { passgate in

            // 1: the first URL refuses (its circuit opens); the call fails over to the slow sandbox and holds the only slot.
            let slowToken = try await RunningPassgate.mintToken(http: passgate.http, sandbox: second, appId: TestConfiguration.md5App)
            let held = Task { try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": slowToken]).status }
            let openSeries = #"passgate_carrier_circuit_open{provider="cmcc",host="127.0.0.1:\#(refusing.port)"} 1"#
            #expect(try await eventually { try await passgate.metrics().contains(openSeries) })
            #expect(try await eventually { try await RunningPassgate.sandboxCalls(http: passgate.http, base: second) == 1 })
            try await Task.sleep(for: .milliseconds(400))  // past circuitOpenMs: the next call to the first URL is its probe

            // 2: the probe finds no free slot and is answered unsent.
            let refused = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "STsidPROBE1"])
            #expect(refused.status == 503 && refused.errorCode == "carrier_unavailable", "\(refused.body)")
            #expect((refused.error["message"] as? String)?.contains("maxConcurrentCalls") == true, "\(refused.body)")

            // 3: the first URL comes back; the next request must probe it (not skip it as half-open) and close the circuit.
            refusing.release()
            var backSettings = TestConfiguration.make().sandboxConfiguration
            backSettings.port = refusing.port
            let back = CarrierSandbox(configuration: backSettings, registry: .builtIn, logger: Logger(label: "test.back"))
            try await back.start()
            #expect(try await held.value == 200)
            let token = try await RunningPassgate.mintToken(http: passgate.http, sandbox: first, appId: TestConfiguration.md5App)
            let recovered = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
            #expect(recovered.status == 200, "\(recovered.body)")
            let metrics = try await passgate.metrics()
            #expect(metrics.contains(#"passgate_carrier_circuit_open{provider="cmcc",host="127.0.0.1:\#(refusing.port)"} 0"#), "\(metrics)")
            await back.shutdown()
        }
        await slow.shutdown()
    }
}
