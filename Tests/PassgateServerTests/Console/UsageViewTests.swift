import PassgateAudit
import PassgateConfig
import PassgateCore
import PassgateTestSupport
import Testing

@testable import PassgateServer

/// The usage page's range: Beijing days, the last seven by default, bad input named by its
/// parameter, and a bounded length; the bar chart's days include the quiet ones.
@Suite("the console's usage range")
struct UsageViewTests {
    /// 2026-11-29T20:00:00Z: already 2026-11-30 in Beijing.
    static let view = UsageView(audit: AuditSettings(), clock: ManualClock(milliseconds: 1_795_982_400_000))

    @Test("no parameters: the last seven Beijing days, today included")
    func defaultRange() throws {
        let query = try Self.view.query(from: nil, to: nil)
        #expect(query.from.description == "2026-11-24" && query.to.description == "2026-11-30" && query.zone == .beijing)
    }

    @Test("bad dates are named: from, to, a reversed or too long range")
    func problems() {
        let bad = #expect(throws: UsageView.Problem.self) { try Self.view.query(from: "2026-13-01", to: nil) }
        #expect(bad?.field == "from" && bad?.message.contains("YYYY-MM-DD") == true)
        #expect((#expect(throws: UsageView.Problem.self) { try Self.view.query(from: nil, to: "yesterday") })?.field == "to")
        #expect((#expect(throws: UsageView.Problem.self) { try Self.view.query(from: "2026-11-30", to: "2026-11-01") })?.message.contains("after") == true)
        #expect((#expect(throws: UsageView.Problem.self) { try Self.view.query(from: "2025-01-01", to: "2026-11-01") })?.message.contains("92 days") == true)
    }

    @Test("per day: every day of the range, summed over apps, providers and operations")
    func perDay() throws {
        var report = UsageReport(query: try Self.view.query(from: "2026-11-28", to: "2026-11-30"))
        let noon29 = AuditDay("2026-11-29")!.startMilliseconds(offsetMilliseconds: 8 * 3_600_000) + 12 * 3_600_000
        for (appId, billable) in [("a", true), ("b", false), ("a", true)] {
            report.add(AuditRecord(
                timeMilliseconds: noon29, requestId: "r", client: "c", appId: appId, provider: "cmcc", operation: "phone_number", msgid: "m",
                carrierTaskId: nil, rawCode: "103000", normalizedCode: "ok", billable: billable, latencyMs: 1, host: "h")!)
        }
        let days = UsageView.perDay(report)
        #expect(days.map(\.day.description) == ["2026-11-28", "2026-11-29", "2026-11-30"])
        #expect(days.map(\.counts.calls) == [0, 3, 0] && days[1].counts.billable == 2)
    }
}
