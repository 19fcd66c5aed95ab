import CarrierSandbox
import Foundation
import PassgateCore
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport
import Testing

/// The log lines of real exchanges, in-process: the CMCC emulator answers the provider's calls,
/// the runtime's logger writes into a memory sink.
@Suite("logs")
struct LogHygieneTests {
    @Test("logs are JSON lines with one request line and one carrier-call line, and never contain a token, secret or full number")
    func noSecretsInLogs() async throws {
        let logs = MemoryLogSink()
        let sandbox = InProcessPassgate.sandbox()
        let tokens = try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox, logs: logs) { passgate in
            var tokens: [String] = []
            for app in [TestConfiguration.md5App, TestConfiguration.rsaApp] {
                let token = try sandbox.mintToken(appId: app, phoneNumber: "13700001234")
                tokens.append(token)
                #expect(try await passgate.post("/v1/phone-number", ["appId": app, "token": token]).status == 200)
                _ = try await passgate.post("/v1/phone-number", ["appId": app, "token": token])  // replayed
                _ = try await passgate.post("/v1/phone-number", ["appId": app, "token": token], apiKey: TestConfiguration.secondShopApiKey)  // spent
            }
            let verifyToken = try sandbox.mintToken(appId: TestConfiguration.md5App, phoneNumber: "13700001234", product: .verify)
            tokens.append(verifyToken)
            _ = try await passgate.post("/v1/phone-number/verify", ["appId": TestConfiguration.md5App, "token": verifyToken, "phoneNumber": "13700001234"])
            _ = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": "x"], apiKey: "not-the-key")
            return tokens
        }

        let lines = logs.contents
        let forbidden = tokens + [TestConfiguration.md5Secret, TestConfiguration.appKey, TestConfiguration.apiKey, TestConfiguration.secondShopApiKey, "13700001234", "not-the-key", "PRIVATE KEY"]
        for line in lines {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "not JSON: \(line)")
            for secret in forbidden {
                #expect(!line.contains(secret), "log line leaks \(secret.prefix(6))…: \(line)")
            }
        }
        let requests = lines.filter { $0.contains(#""msg":"request""#) }
        #expect(requests.count == 8)
        let calls = lines.filter { $0.contains(#""logger":"passgate","msg":"carrier call""#) }
        #expect(calls.count == 5)
        let success = try #require(calls.first { $0.contains(#""code":"ok""#) })
        for field in ["msgid", "taskId", "rawCode", "latencyMs", "billable", "requestId"] {
            #expect(success.contains("\"\(field)\""), "carrier call line lacks \(field): \(success)")
        }
        #expect(success.contains("137****1234"))
    }
}
