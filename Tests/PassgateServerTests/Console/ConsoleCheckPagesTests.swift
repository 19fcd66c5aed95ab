import CarrierSandbox
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PassgateAudit
import PassgateConfig
import PassgateCore
import PassgateState
import PassgateTestSupport
import Prometheus
import Synchronization
import Testing

@testable import PassgateServer

/// The usage and integration check pages on the admin router, in-process (`.router`): behind the
/// console's session and CSRF gate, the CMCC emulator as the gateway's transport, and an audit
/// directory of the test's own. What a person sees is asserted in the page's HTML, and that no
/// token or full number is anywhere in it.
@Suite("the console's usage and integration check pages")
struct ConsoleCheckPagesTests {
    static let phone = "13800138000"

    /// Keeps the records the gateway audits.
    final class MemoryAudit: AuditSink {
        let records = Mutex<[AuditRecord]>([])
        func record(_ record: AuditRecord) { records.withLock { $0.append(record) } }
    }

    /// The admin router with the check pages, over `sandbox`; the audit directory is `auditDirectory`.
    static func with<T: Sendable>(
        sandbox: CarrierSandbox, audit: MemoryAudit = MemoryAudit(), auditDirectory: String = "/nonexistent-passgate-audit",
        _ body: @Sendable (ConsoleHarness) async throws -> T
    ) async throws -> T {
        var configuration = TestConfiguration.withAdmin(InProcessPassgate.cmccConfiguration())
        configuration.audit.enabled = true
        configuration.audit.path = "\(auditDirectory)/audit.jsonl"
        let clock = ManualClock(milliseconds: 1_795_982_400_000)  // 2026-11-29T20:00Z: 2026-11-30 in Beijing
        let metrics = PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))
        let gateway = ProviderGateway(
            registry: configuration.registry, providers: configuration.providers, transport: sandbox, metrics: metrics, audit: audit)
        let exchange = try OneTimeTokenExchange(
            gateway: gateway, store: MemoryStateStore(clock: SystemClock()), replayKey: Array(repeating: 3, count: 32), ttlMs: 300_000, metrics: metrics)
        let configured = configuration
        let live = LiveSettings(RequestSettings(configuration: configuration, generation: 1, clock: clock))
        let reloader = ConfigurationReloader(running: configuration, live: live, logger: Logger(label: "test"), load: { configured })
        let router = buildAdminRouter(
            reloader: reloader, readiness: Readiness(checks: []), keyHash: try #require(configuration.admin.apiKeySHA256), metrics: metrics,
            console: ConsoleDependencies(
                settings: configuration.admin, clock: clock, authFailuresPerMinute: configuration.server.authFailuresPerMinute, gateway: gateway),
            checks: ConsoleCheckDependencies(exchange: exchange, audit: configuration.audit, logger: Logger(label: "test.console")),
            logger: Logger(label: "test"))
        return try await Application(router: router).test(.router) { client in
            try await body(ConsoleHarness(client: client, clock: clock, gateway: gateway, configuration: configured))
        }
    }

    static func page(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test("explain: the signed request with its string to sign, the token masked, nothing sent")
    func explain() async throws {
        let sandbox = InProcessPassgate.sandbox()
        let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
        try await Self.with(sandbox: sandbox) { console in
            let session = try await console.signIn()
            let form = try await console.get("/console/check", cookie: session.cookie)
            #expect(form.status == .ok && Self.page(form).contains("exchange spends the token"))
            let response = try await console.postForm(
                "/console/check", ["csrf": session.csrf, "appId": TestConfiguration.md5App, "token": token, "mode": "explain"], cookie: session.cookie)
            let page = Self.page(response)
            #expect(response.status == .ok)
            #expect(page.contains("What Passgate would send") && page.contains("signed string") && page.contains(CheckMask.mask(token: token)))
            #expect(!page.contains(token) && !page.contains(TestConfiguration.md5Secret))
        }
        #expect(sandbox.carrierCalls == 0, "explain sends nothing")
    }

    @Test("exchange: the raw reply and the REST answer, masked; audited as client console; 103101 explained")
    func exchange() async throws {
        let sandbox = InProcessPassgate.sandbox()
        let audit = MemoryAudit()
        let good = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
        let rejected = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
        try await Self.with(sandbox: sandbox, audit: audit) { console in
            let session = try await console.signIn()
            let response = try await console.postForm(
                "/console/check", ["csrf": session.csrf, "appId": TestConfiguration.md5App, "token": good, "mode": "exchange"], cookie: session.cookie)
            let page = Self.page(response)
            #expect(page.contains("What the provider answered") && page.contains("103000") && page.contains("138****8000"))
            #expect(!page.contains(good) && !page.contains(Self.phone))

            try await sandbox.forceResultCode("103101")
            let refused = Self.page(try await console.postForm(
                "/console/check", ["csrf": session.csrf, "appId": TestConfiguration.md5App, "token": rejected, "mode": "exchange"], cookie: session.cookie))
            #expect(refused.contains("id=\"error-explained\"") && refused.contains("signature_rejected") && refused.contains("fix_config"))
            #expect(refused.contains("cmcc 103101") && refused.contains("HTTP 502"))
            #expect(!refused.contains(rejected))
        }
        #expect(audit.records.withLock { $0.map(\.client) } == ["console", "console"])
    }

    @Test("a bad form is answered 400 naming the field; a POST without the CSRF token is refused before it runs")
    func refusals() async throws {
        let sandbox = InProcessPassgate.sandbox()
        let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
        try await Self.with(sandbox: sandbox) { console in
            let session = try await console.signIn()
            let bad = try await console.postForm(
                "/console/check", ["csrf": session.csrf, "appId": TestConfiguration.md5App, "token": "", "mode": "exchange"], cookie: session.cookie)
            #expect(bad.status == .badRequest && Self.page(bad).contains("id=\"check-problem\"") && Self.page(bad).contains("<strong>token:</strong>"))
            let noCSRF = try await console.postForm(
                "/console/check", ["appId": TestConfiguration.md5App, "token": token, "mode": "exchange"], cookie: session.cookie)
            #expect(noCSRF.status == .forbidden)
            let noSession = try await console.postForm("/console/check", ["csrf": session.csrf, "appId": TestConfiguration.md5App, "token": token])
            #expect(noSession.status == .forbidden)
            #expect(try await console.get("/console/usage").status == .seeOther, "a page without a session goes to sign-in")
        }
        #expect(sandbox.carrierCalls == 0)
    }

    @Test("usage: the audit log's rows, a bar per day with its numbers, the CSV as a download; a bad date named")
    func usage() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-usage-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let noon = AuditDay("2026-11-29")!.startMilliseconds(offsetMilliseconds: 8 * 3_600_000) + 12 * 3_600_000
        let lines = [("300011111111", true), ("300011111111", false), ("=cmd", true)].map { appId, billable in
            String(decoding: AuditRecord(
                timeMilliseconds: noon, requestId: "r", client: "shop", appId: appId, provider: "cmcc", operation: "phone_number", msgid: "m",
                rawCode: "103000", normalizedCode: "ok", billable: billable, latencyMs: 12, host: "h")!.jsonLine(), as: UTF8.self)
        }
        try lines.joined().write(toFile: "\(directory)/audit.jsonl", atomically: true, encoding: .utf8)
        try await Self.with(sandbox: InProcessPassgate.sandbox(), auditDirectory: directory) { console in
            let session = try await console.signIn()
            let response = try await console.get("/console/usage", cookie: session.cookie)
            let page = Self.page(response)
            #expect(response.status == .ok)
            #expect(page.contains("value=\"2026-11-24\"") && page.contains("value=\"2026-11-30\""), "the last seven Beijing days")
            #expect(page.contains("<td>2026-11-29</td><td>300011111111</td><td>cmcc</td><td>phone_number</td><td class=\"number\">2</td><td class=\"number\">1</td>"))
            #expect(page.contains("3 calls, 2 billable"))
            #expect(page.contains("0 calls, 0 billable"), "a quiet day has its bar and numbers too")
            #expect(page.contains("href=\"/console/usage.csv?from=2026-11-24&amp;to=2026-11-30\""))

            let csv = try await console.get("/console/usage.csv?from=2026-11-29&to=2026-11-29", cookie: session.cookie)
            #expect(csv.status == .ok && csv.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let text = String(buffer: csv.body)
            #expect(text.hasPrefix("day,appId,provider,operation,calls,billable,nonBillable\n"))
            #expect(text.contains("2026-11-29,'=cmd,cmcc,phone_number,1,1,0\n"), "a formula-like value is neutralised: \(text)")

            let bad = try await console.get("/console/usage?from=2026-02-30", cookie: session.cookie)
            #expect(bad.status == .badRequest && Self.page(bad).contains("<strong>from:</strong> from must be a date YYYY-MM-DD"))
        }
    }
}
