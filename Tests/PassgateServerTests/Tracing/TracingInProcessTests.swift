import CarrierSandbox
import Foundation
import HTTPTypes
import PassgateAudit
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport
import Synchronization
import Testing

/// A test's span receiver: every sampled span, as it ended.
final class MemorySpanSink: SpanSink {
    private let spans = Mutex<[FinishedSpan]>([])
    func finished(_ span: FinishedSpan) { spans.withLock { $0.append(span) } }
    var finished: [FinishedSpan] { spans.withLock { $0 } }
}

/// The span tree of real exchanges, in-process: the request path as `serve` runs it, the CMCC
/// emulator as the carrier, the audit log on, spans into memory.
@Suite("tracing: spans through the request path")
struct TracingInProcessTests {
    static let caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    static let phone = "13900000042"

    /// Runs `body` against the CMCC emulator with tracing at `ratio`; returns the spans, log lines
    /// and audit lines, with the tokens `body` used.
    static func traced(
        ratio: Double = 1, _ body: @Sendable (InProcessPassgate, CarrierSandbox) async throws -> [String]
    ) async throws -> (spans: [FinishedSpan], logs: [String], audit: [[String: Any]], tokens: [String]) {
        var (configuration, directory) = AuditLogWiringTests.audited()
        configuration.tracing.samplingRatio = ratio
        let writer = try AuditLogWiringTests.writer(configuration)
        let sink = MemorySpanSink(), logs = MemoryLogSink()
        let sandbox = InProcessPassgate.sandbox()
        let tokens = try await InProcessPassgate.with(
            InProcessPassgate.pointedAtSandbox(configuration), carrier: sandbox, audit: writer, logs: logs, spans: sink
        ) { passgate in try await body(passgate, sandbox) }
        #expect(await writer.flush())
        await writer.shutdown()
        let text = (try? String(contentsOfFile: "\(directory)/audit.jsonl", encoding: .utf8)) ?? ""
        let audit = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return (sink.finished, logs.contents, audit, tokens)
    }

    @Test("a request with a traceparent: a server span under the caller's, children for the cache, claim, provider call and audit write")
    func spanTree() async throws {
        let (spans, logs, audit, tokens) = try await Self.traced { passgate, sandbox in
            let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
            let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token],
                                                 extraHeaders: [("traceparent", Self.caller), ("tracestate", "congo=t61rcWkgMzE"), ("X-Request-Id", "traced-1")])
            #expect(answer.status == 200, "\(answer.body)")
            // Health checks are not traced: a load balancer's probes would crowd the traces out.
            #expect(try await passgate.send(.get, "/readyz", headers: [("traceparent", Self.caller)]).status == 200)
            return [token]
        }
        let traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
        #expect(spans.allSatisfy { $0.traceId.hex == traceId && $0.traceState == "congo=t61rcWkgMzE" }, "\(spans)")
        let server = try #require(spans.first { $0.kind == .server })
        #expect(server.parentSpanId == 0x00f0_67aa_0ba9_02b7)
        #expect(server.name == "POST /v1/phone-number")
        #expect(server["http.route"] == .string("/v1/phone-number") && server["http.response.status_code"] == .int(200))
        #expect(server["passgate.client"] == .string("shop") && server["passgate.app_id"] == .string(TestConfiguration.md5App))
        #expect(Set(spans.map(\.name)) == ["POST /v1/phone-number", "replay_cache.lookup", "claim", "cmcc phone_number", "audit.write"])
        #expect(spans.filter { $0.kind != .server }.allSatisfy { $0.parentSpanId == server.spanId }, "every child hangs off the server span")
        #expect(spans.first { $0.name == "replay_cache.lookup" }?["passgate.replay.hit"] == .bool(false))
        #expect(spans.first { $0.name == "claim" }?["passgate.claim.result"] == .string("claimed"))
        let call = try #require(spans.first { $0.kind == .client })
        #expect(call["passgate.provider"] == .string("cmcc") && call["passgate.app_id"] == .string(TestConfiguration.md5App))
        #expect(call["passgate.operation"] == .string("phone_number") && call["passgate.attempt"] == .int(1))
        #expect(call["passgate.provider.code"] == .string("103000") && call["passgate.code"] == .string("ok") && call["passgate.billable"] == .bool(true))
        #expect(call["server.address"] != nil && call.error == nil)
        // The trace id in every line of the request, and in its audit record.
        let requestLines = logs.filter { $0.contains("traced-1") }
        #expect(requestLines.count >= 2 && requestLines.allSatisfy { $0.contains("\"traceId\":\"\(traceId)\"") }, "\(requestLines)")
        #expect(audit.count == 1 && audit.first?["traceId"] as? String == traceId, "\(audit)")
        Self.expectNoSecrets(spans, tokens: tokens)
    }

    @Test("a failed provider call's span has error status and the codes; a replay has a cache hit and no provider call")
    func failureAndReplay() async throws {
        let (spans, _, _, tokens) = try await Self.traced { passgate, sandbox in
            let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
            _ = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
            let replay = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
            #expect(replay.json["replayed"] as? Bool == true)
            let spent = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token],
                                                apiKey: TestConfiguration.secondShopApiKey)
            #expect(spent.errorCode == "token_invalid")
            return [token]
        }
        let servers = spans.filter { $0.kind == .server }
        #expect(servers.count == 3 && Set(servers.map(\.traceId)).count == 3, "each request without a traceparent starts its own trace")
        #expect(servers.allSatisfy { $0.parentSpanId == nil })
        let replayTrace = servers[1].traceId
        #expect(spans.filter { $0.traceId == replayTrace }.map(\.name).sorted() == ["POST /v1/phone-number", "replay_cache.lookup"])
        #expect(spans.first { $0.traceId == replayTrace && $0.name == "replay_cache.lookup" }?["passgate.replay.hit"] == .bool(true))
        let failed = try #require(spans.first { $0.traceId == servers[2].traceId && $0.kind == .client })
        #expect(failed.error?.isError == true && failed["passgate.code"] == .string("token_invalid") && failed["passgate.billable"] == .bool(false))
        #expect(servers[2]["passgate.code"] == .string("token_invalid") && servers[2].error == nil, "a 4xx is not a server error")
        Self.expectNoSecrets(spans, tokens: tokens)
    }

    @Test("a malformed traceparent starts a new trace and the request succeeds; an unsampled one at ratio 0 records nothing but keeps its trace id in the logs")
    func malformedAndUnsampled() async throws {
        let unsampled = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"
        let (spans, logs, _, _) = try await Self.traced(ratio: 0) { passgate, sandbox in
            let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
            let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token],
                                                 extraHeaders: [("traceparent", unsampled), ("X-Request-Id", "unsampled-1")])
            #expect(answer.status == 200)
            let other = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
            let malformed = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": other],
                                                    extraHeaders: [("traceparent", "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01"), ("X-Request-Id", "malformed-1")])
            #expect(malformed.status == 200)
            return []
        }
        #expect(spans.isEmpty, "ratio 0 and no sampled parent: nothing recorded")
        let lines = logs.filter { $0.contains("unsampled-1") }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.contains("0af7651916cd43dd8448eb211c80319c") })
        let malformedLines = logs.filter { $0.contains("malformed-1") }
        #expect(!malformedLines.isEmpty && malformedLines.allSatisfy { $0.contains("\"traceId\":\"") && !$0.lowercased().contains("0af7651916cd43dd") })
    }

    @Test("with tracing off no log line or audit record has a trace id")
    func off() async throws {
        let (configuration, directory) = AuditLogWiringTests.audited()
        let writer = try AuditLogWiringTests.writer(configuration)
        let logs = MemoryLogSink()
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.pointedAtSandbox(configuration), carrier: sandbox, audit: writer, logs: logs) { passgate in
            let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
            let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token],
                                                 extraHeaders: [("traceparent", Self.caller)])
            #expect(answer.status == 200)
        }
        #expect(await writer.flush())
        await writer.shutdown()
        let text = (try? String(contentsOfFile: "\(directory)/audit.jsonl", encoding: .utf8)) ?? ""
        #expect(text.contains("\"traceId\":null"), "\(text)")
        #expect(!logs.contents.isEmpty && !logs.contents.contains { $0.contains("traceId") })
    }

    /// No token, number, key or secret in any span's name or attribute.
    static func expectNoSecrets(_ spans: [FinishedSpan], tokens: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let forbidden = tokens + [Self.phone, TestConfiguration.md5Secret, TestConfiguration.appKey, TestConfiguration.apiKey, TestConfiguration.secondShopApiKey]
        for span in spans {
            let texts = [span.name, span.traceState ?? ""] + span.attributes.flatMap { attribute -> [String] in
                if case .string(let text) = attribute.value { return [attribute.key, text] }
                return [attribute.key]
            }
            for text in texts {
                #expect(!forbidden.contains { text.contains($0) }, "span \(span.name) holds a secret: \(text)", sourceLocation: sourceLocation)
                #expect(!text.contains("1390000"), "span \(span.name) holds a number: \(text)", sourceLocation: sourceLocation)
            }
        }
    }
}
