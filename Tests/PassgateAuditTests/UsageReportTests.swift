import Foundation
import Logging
import PassgateAudit
import Testing

@Suite("Usage report: totals per app and Beijing day")
struct UsageReportTests {
    /// `2026-11-20T16:30:00.000Z`: Beijing 2026-11-21 00:30.
    static let afterBeijingMidnight: Int64 = 1_795_192_200_000
    static func day(_ text: String) -> AuditDay { AuditDay(text)! }

    @Test("totals read back from rotated files match what was recorded, per day, app, provider and operation")
    func totalsMatchRecords() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let writer = try AuditLogWriter(path: "\(directory)/audit.jsonl", maxFileBytes: 8192, fsyncIntervalMs: 1000, maxFiles: 0, logger: Logger(label: "test"))
        let start = AuditDay("2026-11-01")!.startMilliseconds(offsetMilliseconds: UsageDayZone.beijing.offsetMilliseconds)
        var expected: [String: (calls: Int, billable: Int)] = [:]
        for index in 0..<600 {
            let dayIndex = index % 3
            let app = index % 4 == 0 ? "300022222222" : "300011111111"
            let operation = index % 5 == 0 ? "verify" : "phone_number"
            let billable = index % 7 != 0
            let time = start + Int64(dayIndex) * 86_400_000 + Int64(index) * 60_000 % 86_400_000
            writer.record(AuditFixtures.record(index, at: time, appId: app, operation: operation, billable: billable))
            let key = "2026-11-0\(dayIndex + 1) \(app) cmcc \(operation)"
            expected[key, default: (0, 0)].calls += 1
            if billable { expected[key, default: (0, 0)].billable += 1 }
        }
        await writer.shutdown()
        #expect(try AuditFixtures.files(directory).count > 5, "the log rotated")

        let report = try UsageReport.read(directory: directory, query: UsageQuery(from: Self.day("2026-11-01"), to: Self.day("2026-11-03")))
        var found: [String: (calls: Int, billable: Int)] = [:]
        for (key, counts) in report.rows { found["\(key.day) \(key.appId) \(key.provider) \(key.operation)"] = (counts.calls, counts.billable) }
        #expect(found.mapValues { [$0.calls, $0.billable] } == expected.mapValues { [$0.calls, $0.billable] })
        #expect(report.total.calls == 600 && report.total.billable == expected.values.map(\.billable).reduce(0, +))
        #expect(report.recordsRead == 600 && report.malformedCount == 0)
        #expect(report.perAppAndDay.count == 6)
        #expect(report.perAppAndDay.map(\.counts.calls).reduce(0, +) == 600)

        let oneDay = try UsageReport.read(directory: directory, query: UsageQuery(from: Self.day("2026-11-02"), to: Self.day("2026-11-02"), appId: "300022222222"))
        let expectedOneDay = expected.filter { $0.key.hasPrefix("2026-11-02 300022222222") }.values
        #expect(oneDay.total.calls == expectedOneDay.map(\.calls).reduce(0, +))
        #expect(oneDay.total.billable == expectedOneDay.map(\.billable).reduce(0, +))
        #expect(oneDay.rows.allSatisfy { $0.key.appId == "300022222222" && $0.key.day == Self.day("2026-11-02") })
    }

    @Test("day boundaries follow Beijing time (UTC+8) unless UTC days are asked for")
    func beijingDays() throws {
        var beijing = UsageReport(query: UsageQuery(from: Self.day("2026-11-20"), to: Self.day("2026-11-21")))
        var utc = UsageReport(query: UsageQuery(from: Self.day("2026-11-20"), to: Self.day("2026-11-21"), zone: .utc))
        let lastBeijingMillisecondOf20th = Self.afterBeijingMidnight - 30 * 60_000 - 1  // 2026-11-20T15:59:59.999Z
        for record in [AuditFixtures.record(1, at: Self.afterBeijingMidnight), AuditFixtures.record(2, at: lastBeijingMillisecondOf20th)] {
            beijing.add(record)
            utc.add(record)
        }
        #expect(beijing.rows.map { "\($0.key.day)" } == ["2026-11-20", "2026-11-21"])
        #expect(utc.rows.map { "\($0.key.day)" } == ["2026-11-20"])
        #expect(utc.rows.first?.counts.calls == 2)

        var edges = UsageReport(query: UsageQuery(from: Self.day("2026-11-21"), to: Self.day("2026-11-21")))
        let beijingStart = Self.afterBeijingMidnight - 30 * 60_000
        for time in [beijingStart - 1, beijingStart, beijingStart + 86_400_000 - 1, beijingStart + 86_400_000] {
            edges.add(AuditFixtures.record(0, at: time))
        }
        #expect(edges.total.calls == 2, "the first and the last millisecond of the Beijing day, inclusive; nothing outside")
    }

    @Test("a torn last line and a garbage line are reported with file and line, and the rest still counts")
    func malformedLines() throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let good = (0..<3).map { String(decoding: AuditFixtures.record($0, at: Self.afterBeijingMidnight).jsonLine(), as: UTF8.self) }
        let torn = String(good[0].prefix(60))
        let text = good[0] + "not json at all\n" + "{\"time\":\"2026-11-21T00:00:00.000Z\"}\n" + good[1] + "\n" + good[2] + torn
        FileManager.default.createFile(atPath: "\(directory)/audit.jsonl", contents: Data(text.utf8))
        let report = try UsageReport.read(directory: directory, query: UsageQuery(from: Self.day("2026-11-21"), to: Self.day("2026-11-21")))
        #expect(report.total.calls == 3)
        #expect(report.malformedCount == 3)
        #expect(report.malformedExamples.map(\.line) == [2, 3, 7], "the blank line 5 is skipped silently but numbered")
        #expect(report.malformedExamples.first?.file == "\(directory)/audit.jsonl")
        #expect(report.malformedExamples[1].reason.contains("missing 'requestId'"), "\(report.malformedExamples[1].reason)")
        #expect(report.malformedExamples.last?.reason.contains("incomplete last line") == true)
    }

    @Test("files rotated more than a day before the range are skipped; other names and extensions are handled")
    func fileSelection() throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let old = AuditFixtures.record(1, at: 1_600_000_000_000).jsonLine()
        let recent = AuditFixtures.record(2, at: Self.afterBeijingMidnight).jsonLine()
        FileManager.default.createFile(atPath: "\(directory)/audit-20200913T122640Z-0001.jsonl", contents: Data(old))
        FileManager.default.createFile(atPath: "\(directory)/audit-20261120T170000Z-0001.jsonl", contents: Data(recent))
        FileManager.default.createFile(atPath: "\(directory)/host-b.jsonl", contents: Data(recent))
        FileManager.default.createFile(atPath: "\(directory)/notes.txt", contents: Data("ignored".utf8))
        let report = try UsageReport.read(directory: directory, query: UsageQuery(from: Self.day("2026-11-21"), to: Self.day("2026-11-21")))
        #expect(report.filesSkipped == ["\(directory)/audit-20200913T122640Z-0001.jsonl"])
        #expect(report.filesRead == ["\(directory)/audit-20261120T170000Z-0001.jsonl", "\(directory)/host-b.jsonl"])
        #expect(report.total.calls == 2)
    }

    @Test("a missing directory is an error that says what to check")
    func missingDirectory() {
        do {
            _ = try UsageReport.read(directory: "/nonexistent/passgate-audit", query: UsageQuery(from: Self.day("2026-11-01"), to: Self.day("2026-11-30")))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notFound && error.message.contains("/nonexistent/passgate-audit") && error.message.contains("audit.path"))
        }
    }

    @Test("CSV: a header row and one row per group, quoted where needed; table: aligned with a TOTAL row")
    func rendering() {
        var report = UsageReport(query: UsageQuery(from: Self.day("2026-11-21"), to: Self.day("2026-11-21")))
        report.add(AuditFixtures.record(1, at: Self.afterBeijingMidnight))
        report.add(AuditFixtures.record(2, at: Self.afterBeijingMidnight, billable: false))
        report.add(AuditFixtures.record(3, at: Self.afterBeijingMidnight, appId: "=cmd,\"x\""))
        let expectedCSV = [
            "day,appId,provider,operation,calls,billable,nonBillable",
            "2026-11-21,300011111111,cmcc,phone_number,2,1,1",
            #"2026-11-21,"'=cmd,""x""",cmcc,phone_number,1,1,0"#,
        ]
        #expect(report.csv() == expectedCSV.joined(separator: "\n") + "\n")
        let table = report.table().split(separator: "\n").map(String.init)
        #expect(table.first == "Carrier calls 2026-11-21 to 2026-11-21, Beijing days (UTC+8)")
        #expect(table[1].hasPrefix("DAY") && table[1].hasSuffix("CALLS  BILLABLE  NON-BILLABLE"))
        #expect(table.last?.hasPrefix("TOTAL") == true && table.last?.hasSuffix("3         2             1") == true, "\(table.last ?? "")")
    }
}
