import CarrierSandbox
import Foundation
import Logging
import PassgateAudit
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport
import Testing

/// The server writes one audit line per carrier call, tied to the request that caused it: driven
/// in-process against the CMCC emulator, the writer flushed by the test rather than waited for.
@Suite("audit log wiring")
struct AuditLogWiringTests {
    /// The test configuration with the audit log on, in a directory of its own, fsync at once.
    static func audited() -> (PassgateConfiguration, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-audit-\(UUID().uuidString)").path
        var configuration = TestConfiguration.make()
        configuration.audit.enabled = true
        configuration.audit.path = "\(directory)/audit.jsonl"
        configuration.audit.fsyncIntervalMs = 0
        return (configuration, directory)
    }

    /// The writer `serve` would make for `configuration`'s audit settings.
    static func writer(_ configuration: PassgateConfiguration) throws -> AuditLogWriter {
        try AuditLogWriter(
            path: configuration.audit.path, maxFileBytes: configuration.audit.maxFileBytes, fsyncIntervalMs: configuration.audit.fsyncIntervalMs,
            logger: Logger(label: "test.audit"))
    }

    @Test("each carrier call is one audit line with the request's id, client and app; replays add none; no token or number")
    func oneLinePerCarrierCall() async throws {
        let (configuration, directory) = Self.audited()
        let writer = try Self.writer(configuration)
        let sandbox = InProcessPassgate.sandbox()
        let tokens = try await InProcessPassgate.with(InProcessPassgate.pointedAtSandbox(configuration), carrier: sandbox, audit: writer) { passgate in
            var tokens: [String] = []
            for index in 0..<3 {
                let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: "1390000000\(index)")
                tokens.append(token)
                let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token],
                                                     extraHeaders: [("X-Request-Id", "audit-test-\(index)")])
                #expect(answer.status == 200, "\(answer.body)")
            }
            let replay = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": tokens[0]])
            #expect(replay.json["replayed"] as? Bool == true)
            let spent = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": tokens[1]],
                                                apiKey: TestConfiguration.secondShopApiKey, extraHeaders: [("X-Request-Id", "audit-test-bad")])
            #expect(spent.errorCode == "token_invalid")
            return tokens
        }
        #expect(await writer.flush())
        await writer.shutdown()
        let text = (try? String(contentsOfFile: "\(directory)/audit.jsonl", encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.compactMap { $0["requestId"] as? String } == ["audit-test-0", "audit-test-1", "audit-test-2", "audit-test-bad"])
        #expect(lines.map { $0["client"] as? String } == ["shop", "shop", "shop", "shop2"])
        #expect(lines.allSatisfy { $0["appId"] as? String == TestConfiguration.md5App && $0["provider"] as? String == "cmcc" })
        #expect(lines.prefix(3).allSatisfy { $0["billable"] as? Bool == true && $0["rawCode"] as? String == "103000" })
        #expect(lines.last?["normalizedCode"] as? String == "token_invalid")
        let raw = (try? String(contentsOfFile: "\(directory)/audit.jsonl", encoding: .utf8)) ?? ""
        #expect(!tokens.contains { raw.contains($0) } && !raw.contains("1390000000"))
    }

    @Test("with the audit log on, a successful carrier call is not repeated at info; failed calls are; the request line has the masked number")
    func carrierLineOnlyForFailures() async throws {
        let (configuration, _) = Self.audited()
        let writer = try Self.writer(configuration)
        let logs = MemoryLogSink()
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.pointedAtSandbox(configuration), carrier: sandbox, audit: writer, logs: logs) { passgate in
            let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: "13900000009")
            let first = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token],
                                                extraHeaders: [("X-Request-Id", "log-ok")])
            #expect(first.status == 200, "\(first.body)")
            let spent = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token],
                                                apiKey: TestConfiguration.secondShopApiKey, extraHeaders: [("X-Request-Id", "log-bad")])
            #expect(spent.errorCode == "token_invalid")
        }
        await writer.shutdown()

        let lines = logs.contents
        let calls = lines.filter { $0.contains(#""level":"info","logger":"passgate","msg":"carrier call""#) }
        #expect(calls.count == 1, "\(calls)")
        #expect(calls.first?.contains(#""code":"token_invalid""#) == true && calls.first?.contains(#""requestId":"log-bad""#) == true)
        let request = try #require(lines.first { $0.contains(#""msg":"request""#) && $0.contains(#""requestId":"log-ok""#) })
        #expect(request.contains(#""phone":"139****0009""#), "\(request)")
        #expect(!lines.contains { $0.contains("13900000009") })
    }
}
