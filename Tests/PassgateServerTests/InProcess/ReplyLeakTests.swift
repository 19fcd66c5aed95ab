import CarrierSandbox
import Foundation
import Logging
import PassgateAudit
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport
import Prometheus
import ProviderCMCC
import Testing

/// The rule: no log line, metric label, error envelope or audit record ever contains a phone
/// number, token or secret in clear, whatever the carrier sends. Driven in-process through every
/// fault the CMCC emulator can inject and every result code CMCC documents, with logs at debug.
@Suite("nothing leaks, whatever the carrier answers")
struct ReplyLeakTests {
    /// Everything a test run produced that is not a success body: logs, error envelopes, metrics, audit lines.
    struct Output {
        var texts: [String] = []
        var phones: [String] = []
        var tokens: [String] = []
        var phoneIndex = 0

        mutating func nextPhone() -> String {
            phoneIndex += 1
            let phone = "139" + String(format: "%08d", 10_000_000 + phoneIndex * 7919)
            phones.append(phone)
            return phone
        }
    }

    @Test("every sandbox fault, every CMCC code of both tables: no number, token or secret in any output")
    func everyFaultAndCode() async throws {
        let (configuration, directory) = AuditLogWiringTests.audited()
        var settings = configuration
        settings.log.level = .debug
        settings.providers[CMCC.providerID]?.circuitFailureThreshold = 10_000  // every call must reach the sandbox
        let logs = MemoryLogSink()
        let writer = try AuditLogWiringTests.writer(settings)
        let registry = PrometheusCollectorRegistry()
        let sandbox = InProcessPassgate.sandbox(for: settings)
        var output = try await InProcessPassgate.with(
            InProcessPassgate.pointedAtSandbox(settings), carrier: sandbox, registry: registry, audit: writer, logs: logs
        ) { passgate in
            var output = Output()
            func exchange(_ app: String, verify: Bool) async throws {
                let phone = output.nextPhone()
                let token = try sandbox.mintToken(appId: app, phone: phone, product: verify ? "verify" : "login")
                output.tokens.append(token)
                let answer = verify
                    ? try await passgate.post("/v1/phone-number/verify", ["appId": app, "token": token, "phoneNumber": phone])
                    : try await passgate.post("/v1/phone-number", ["appId": app, "token": token])
                if answer.status != 200 { output.texts.append(answer.body) }
            }

            for fault in SandboxFault.allCases where fault != .none {
                sandbox.setFault(fault)
                try await exchange(TestConfiguration.md5App, verify: false)
                try await exchange(TestConfiguration.rsaApp, verify: false)
                try await exchange(TestConfiguration.md5App, verify: true)
            }
            sandbox.setFault(.none)
            for code in CMCC.loginCodes.entries.keys.sorted() where code != "103000" {
                try await sandbox.forceResultCode(code)
                try await exchange(TestConfiguration.md5App, verify: false)
            }
            for code in CMCC.verifyCodes.entries.keys.sorted() where code != "000" && code != "001" {
                try await sandbox.forceResultCode(code)
                try await exchange(TestConfiguration.md5App, verify: true)
            }
            output.texts.append(InProcessPassgate.metrics(registry))
            return output
        }
        #expect(await writer.flush())
        await writer.shutdown()
        output.texts += logs.contents
        let audit = (try? String(contentsOfFile: "\(directory)/audit.jsonl", encoding: .utf8)) ?? ""
        #expect(audit.split(separator: "\n").count >= 140, "every call audited")
        output.texts.append(audit)

        let secrets = [TestConfiguration.md5Secret, TestConfiguration.appKey, TestConfiguration.apiKey, "PRIVATE KEY"]
        let forbidden = output.phones + output.tokens + secrets
        #expect(output.phones.count > 140)
        // One search per value over all the output joined: `String.contains` per text and value
        // (some 300 values over a thousand texts) held a thread of the test process's pool for
        // over a second. No value holds a newline, so none can match across two texts.
        let all = Data(output.texts.joined(separator: "\n").utf8)
        for value in forbidden where all.range(of: Data(value.utf8)) != nil {
            let text = output.texts.first { $0.contains(value) } ?? ""
            Issue.record("output leaks \(value.prefix(5))…: \(text.prefix(600))")
        }
        // The faults that make Passgate describe a body did reach the logs, in redacted form.
        let logged = logs.contents.joined(separator: "\n")
        #expect(logged.contains("<redacted>") || logged.contains("digits>"), "no redacted body shape was logged")
    }
}
