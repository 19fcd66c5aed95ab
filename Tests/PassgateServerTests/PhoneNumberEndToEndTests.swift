import PassgateLiveTestSupport
import PassgateCore
import CurlTransport
import Foundation
import Testing

/// client -> Passgate (Hummingbird) -> libcurl -> CMCC sandbox, all real HTTP on loopback: CMCC's
/// exchange and the listeners' metrics. RSA numbers, verification and request ids run in-process
/// (`PhoneNumberInProcessTests`).
@Suite("REST API end to end against the embedded sandbox")
struct PhoneNumberEndToEndTests {
    @Test("MD5 mode: a minted token becomes the phone number, with masked copy, task id and echoed reference")
    func md5PhoneNumber() async throws {
        try await withRunningPassgate { passgate in
            let token = try await passgate.mintToken(appId: TestConfiguration.md5App, phone: "13912345678")
            let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token, "reference": "order-42"])
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.json["phoneNumber"] as? String == "13912345678")
            #expect(answer.json["maskedPhoneNumber"] as? String == "139****5678")
            #expect(answer.json["provider"] as? String == "cmcc")
            #expect(answer.json["replayed"] as? Bool == false)
            #expect(answer.json["reference"] as? String == "order-42")
            #expect((answer.json["carrierTaskId"] as? String)?.isEmpty == false)
            #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
            #expect(answer.header("X-Request-Id") == answer.json["requestId"] as? String)
        }
    }

    @Test("health, readiness and Prometheus metrics are served, and metrics count requests and carrier outcomes")
    func healthAndMetrics() async throws {
        try await withRunningPassgate { passgate in
            let health = try await passgate.send(.get, "/healthz", headers: [])
            #expect(health.status == 200 && health.json["status"] as? String == "ok")
            let ready = try await passgate.send(.get, "/readyz", headers: [])
            #expect(ready.status == 200 && ready.json["status"] as? String == "ready", "\(ready.body)")
            let token = try await passgate.mintToken(appId: TestConfiguration.md5App)
            _ = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
            _ = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token], apiKey: TestConfiguration.secondShopApiKey)
            let metrics = try await passgate.metrics()
            // Not on the public API port any more: it is the metrics listener's.
            #expect(try await passgate.send(.get, "/metrics", headers: []).status == 404)
            #expect(metrics.contains(#"passgate_http_requests_total{route="/v1/phone-number",method="POST",status="200"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"passgate_http_requests_total{route="/v1/phone-number",method="POST",status="422"} 1"#))
            #expect(metrics.contains(#"passgate_carrier_outcomes_total{provider="cmcc",operation="phone_number",code="ok"} 1"#))
            #expect(metrics.contains(#"passgate_carrier_outcomes_total{provider="cmcc",operation="phone_number",code="token_invalid"} 1"#))
            #expect(metrics.contains(#"passgate_carrier_latency_seconds_count{provider="cmcc",operation="phone_number"} 2"#), "\(metrics)")
            // The carrier bills the success only: its token_invalid answer is not a billable one.
            #expect(metrics.contains(#"passgate_carrier_billable_total{provider="cmcc",operation="phone_number"} 1"#), "\(metrics)")
            #expect(!metrics.contains(#"passgate_carrier_billable_total{provider="cmcc",operation="verify"} 1"#))
            #expect(metrics.contains("passgate_transport_"))
        }
    }
}
