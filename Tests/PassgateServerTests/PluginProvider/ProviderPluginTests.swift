import PassgateLiveTestSupport
import PassgateTestSupport
import CurlTransport
import Foundation
import PassgateConfig
import PassgateCore
import PassgateServer
import Testing

/// A provider plugged in the documented way, from a test target: one registration line, its
/// settings reader, nothing else. Everything shared works for it unchanged, over real HTTP.
@Suite("a provider plugged in from outside")
struct ProviderPluginTests {
    static let secret = "echo-secret-0f3a9b"
    static let number = "13912345670"

    static func configuration(carrierPort: Int, auditDirectory: String) throws -> PassgateConfiguration {
        let hex = { (key: String) in TestConfiguration.hash(key).map { String(format: "%02x", $0) }.joined() }
        let yaml = """
            server: {host: 127.0.0.1, port: 0}
            metrics: {port: 0}
            log: {level: debug}
            providers:
              echo: {baseURLs: ["http://127.0.0.1:\(carrierPort)"], timeoutMs: 10000}
            apps:
              - {appId: "echoapp1", provider: echo, secret: "env:ECHO_SECRET"}
            clients:
              - {id: shop, apiKeySHA256: "\(hex(TestConfiguration.apiKey))", apps: ["echoapp1"]}
              - {id: shop2, apiKeySHA256: "\(hex(TestConfiguration.secondShopApiKey))", apps: ["echoapp1"]}
            audit: {enabled: true, path: "\(auditDirectory)/audit.jsonl", fsyncIntervalMs: 0}
            """
        // The registration line.
        let loader = ConfigurationLoader.testing(environment: ["ECHO_SECRET": secret], registry: .testing.adding([EchoProvider()]))
        return try loader.load(yaml: yaml, baseDirectory: auditDirectory)
    }

    @Test("exchange, replay without a second call, audit line, metrics and redaction all work for a plugged-in provider")
    func endToEnd() async throws {
        let carrier = EchoCarrier(secret: Self.secret, number: Self.number)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-plugin-\(UUID().uuidString)").path
        try await carrier.serve { port in
            let logs = MemoryLogSink()
            let replies = try await withRunningPassgate(try Self.configuration(carrierPort: port, auditDirectory: directory), logs: logs) { passgate in
                let first = try await passgate.post("/v1/phone-number", ["appId": "echoapp1", "token": "echo-token-000001"])
                #expect(first.status == 200 && first.json["phoneNumber"] as? String == Self.number && first.json["provider"] as? String == "echo", "\(first.body)")
                #expect(first.json["carrierTaskId"] as? String == "t-000001")
                let replay = try await passgate.post("/v1/phone-number", ["appId": "echoapp1", "token": "echo-token-000001"])
                #expect(replay.json["replayed"] as? Bool == true && carrier.calls == 1)
                // Another client's request reaches the carrier, which answers the echo's own "used" code.
                let spent = try await passgate.post("/v1/phone-number", ["appId": "echoapp1", "token": "echo-token-000001"],
                                                    apiKey: TestConfiguration.secondShopApiKey)
                #expect(spent.status == 422 && spent.errorCode == "token_invalid" && carrier.calls == 2, "\(spent.body)")
                #expect((spent.error["carrier"] as? [String: Any])?["code"] as? String == "9")

                carrier.truncateReplies()
                let truncated = try await passgate.post("/v1/phone-number", ["appId": "echoapp1", "token": "echo-token-000002"])
                #expect(truncated.status == 502 && truncated.errorCode == "carrier_bad_response", "\(truncated.body)")

                let metrics = try await passgate.metrics()
                #expect(metrics.contains(#"passgate_carrier_outcomes_total{provider="echo",operation="phone_number",code="ok"} 1"#), "\(metrics)")
                #expect(metrics.contains(#"passgate_carrier_outcomes_total{provider="echo",operation="phone_number",code="carrier_bad_response"} 1"#))
                return [truncated.body, metrics]
            }

            let audit = try String(contentsOfFile: "\(directory)/audit.jsonl", encoding: .utf8).split(separator: "\n")
            #expect(audit.count == 3 && audit.allSatisfy { $0.contains(#""provider":"echo""#) }, "\(audit)")
            for text in logs.contents + audit.map(String.init) + replies {
                #expect(!text.contains(Self.number) && !text.contains(Self.secret) && !text.contains("echo-token-00000"), "leak: \(text.prefix(300))")
            }
        }
    }

    @Test("check-config names the plugged-in provider's missing setting, and an unknown provider lists the registered ones")
    func configurationProblems() throws {
        let loader = ConfigurationLoader.testing(environment: [:], registry: .testing.adding([EchoProvider()]))
        let yaml = """
            providers: {echo: {baseURLs: ["https://echo.example"]}}
            apps:
              - {appId: "echoapp1", provider: echo}
              - {appId: "echoapp2", provider: other, secret: "x"}
            """
        #expect {
            try loader.load(yaml: yaml, baseDirectory: "/tmp")
        } throws: { error in
            let problems = (error as? ConfigurationError)?.problems ?? []
            return problems.contains { $0.path == "apps[0].secret" && $0.message.contains("required for an echo app") }
                && problems.contains { $0.path == "apps[1].provider" && $0.message.contains("supported: \(ProviderRegistry.testing.adding([EchoProvider()]).ids.joined(separator: ", "))") }
        }
    }
}
