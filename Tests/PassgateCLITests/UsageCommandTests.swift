import Foundation
import PassgateCore
import PassgateAudit
import Testing

@Suite("passgate usage")
struct UsageCommandTests {
    /// An audit directory with a current and a rotated file: per Beijing day 2026-11-20/21/22, two apps,
    /// billable and not, plus one torn last line.
    static func writeLog() throws -> (directory: String, records: [AuditRecord]) {
        let directory = try ProcessRunner.temporaryDirectory() + "/audit"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let beijing21 = AuditDay("2026-11-21")!.startMilliseconds(offsetMilliseconds: UsageDayZone.beijing.offsetMilliseconds)
        var records: [AuditRecord] = []
        for index in 0..<90 {
            let time = beijing21 + Int64(index % 3 - 1) * 86_400_000 + Int64(index) * 7 * 60_000  // days 20, 21, 22
            records.append(AuditRecord(
                timeMilliseconds: time, requestId: "req-\(index)", client: "shop", appId: index % 2 == 0 ? "300011111111" : "300022222222",
                call: CarrierCall(
                    provider: "cmcc", operation: index % 10 == 0 ? .verify : .phoneNumber, msgid: "m\(index)", taskId: nil,
                    rawCode: index % 6 == 0 ? "104201" : "103000", normalizedCode: index % 6 == 0 ? "token_invalid" : "ok",
                    billable: index % 6 != 0, latencyMs: 10, host: "www.cmpassport.com")))
        }
        let lines = records.map { $0.jsonLine() }
        try Data(lines[0..<50].joined()).write(to: URL(fileURLWithPath: "\(directory)/audit-20261121T000000Z-0001.jsonl"))
        try Data(lines[50...].joined() + Array("{\"time\":\"2026-11-21T0".utf8)).write(to: URL(fileURLWithPath: "\(directory)/audit.jsonl"))
        return (directory, records)
    }

    /// Expected (calls, billable) for records selected by `include`.
    static func expected(_ records: [AuditRecord], _ include: (AuditRecord) -> Bool) -> (Int, Int) {
        let selected = records.filter(include)
        return (selected.count, selected.filter(\.billable).count)
    }

    static func beijingDay(_ record: AuditRecord) -> String {
        AuditDay(milliseconds: record.timeMilliseconds, offsetMilliseconds: UsageDayZone.beijing.offsetMilliseconds).description
    }

    @Test("CSV rows add up to the log's calls and billable calls, per day and app; the torn line is reported on stderr")
    func csvTotals() async throws {
        let (directory, records) = try Self.writeLog()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let result = try await ProcessRunner.passgate(["usage", "--audit-dir", directory, "--from", "2026-11-20", "--to", "2026-11-22", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.first == ["day", "appId", "provider", "operation", "calls", "billable", "nonBillable"])
        var sums: [String: (Int, Int)] = [:]
        for row in rows.dropFirst() {
            let key = "\(row[0]) \(row[1])"
            sums[key] = ((sums[key]?.0 ?? 0) + Int(row[4])!, (sums[key]?.1 ?? 0) + Int(row[5])!)
            #expect(Int(row[4])! - Int(row[5])! == Int(row[6])!)
        }
        for day in ["2026-11-20", "2026-11-21", "2026-11-22"] {
            for app in ["300011111111", "300022222222"] {
                let want = Self.expected(records) { Self.beijingDay($0) == day && $0.appId == app }
                #expect(sums["\(day) \(app)"]?.0 == want.0 && sums["\(day) \(app)"]?.1 == want.1, "\(day) \(app)")
            }
        }
        #expect(result.stderr.contains("1 malformed line") && result.stderr.contains("audit.jsonl:41: incomplete last line"), "\(result.stderr)")
    }

    @Test("the table ends in a TOTAL row matching the log; --app and --utc narrow and regroup it")
    func tableTotals() async throws {
        let (directory, records) = try Self.writeLog()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let all = try await ProcessRunner.passgate(["usage", "--audit-dir", directory, "--from", "2026-11-21", "--to", "2026-11-21"])
        #expect(all.status == 0, "\(all.stderr)")
        let want = Self.expected(records) { Self.beijingDay($0) == "2026-11-21" }
        #expect(Self.totalRow(all.stdout) == [want.0, want.1, want.0 - want.1], "\(all.stdout)")
        #expect(all.stdout.hasPrefix("Carrier calls 2026-11-21 to 2026-11-21, Beijing days (UTC+8)\n"))

        let oneApp = try await ProcessRunner.passgate(["usage", "--audit-dir", directory, "--from", "2026-11-20", "--to", "2026-11-22", "--app", "300022222222"])
        let wantApp = Self.expected(records) { $0.appId == "300022222222" }
        #expect(Self.totalRow(oneApp.stdout) == [wantApp.0, wantApp.1, wantApp.0 - wantApp.1], "\(oneApp.stdout)")
        #expect(!oneApp.stdout.contains("300011111111"))

        let utc = try await ProcessRunner.passgate(["usage", "--audit-dir", directory, "--from", "2026-11-21", "--to", "2026-11-21", "--utc"])
        let wantUTC = Self.expected(records) { AuditDay(milliseconds: $0.timeMilliseconds, offsetMilliseconds: 0).description == "2026-11-21" }
        #expect(Self.totalRow(utc.stdout) == [wantUTC.0, wantUTC.1, wantUTC.0 - wantUTC.1], "\(utc.stdout)")
        let utcDay = { (record: AuditRecord) in AuditDay(milliseconds: record.timeMilliseconds, offsetMilliseconds: 0).description }
        #expect(records.contains { Self.beijingDay($0) == "2026-11-21" && utcDay($0) == "2026-11-20" }, "the fixture crosses Beijing midnight")
    }

    @Test("--config locates the log through audit.path, reading only the audit section")
    func throughConfig() async throws {
        let (directory, records) = try Self.writeLog()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let config = "\(directory)/../passgate.yaml"
        let yaml = "apps:\n  - {appId: \"300011111111\", signMode: md5, secret: \"env:NOT_SET_HERE\"}\naudit:\n  path: \(directory)/audit.jsonl\n"
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: config))
        let result = try await ProcessRunner.passgate(["usage", "--config", config, "--from", "2026-11-20", "--to", "2026-11-22", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let calls = result.stdout.split(separator: "\n").dropFirst().map { Int($0.split(separator: ",")[4])! }.reduce(0, +)
        #expect(calls == records.count)
    }

    @Test("bad arguments exit 64, a missing directory 66, a broken audit section 78", arguments: [
        (["--from", "2026-11-31", "--to", "2026-12-01"], 64, "--from must be a date"),
        (["--from", "2026-11-22", "--to", "2026-11-21"], 64, "is after --to"),
        (["--from", "2026-11-21", "--to", "2026-11-21", "--format", "xml"], 64, "format"),
        (["--from", "2026-11-21", "--to", "2026-11-21", "--config", "x.yaml", "--audit-dir", "/tmp"], 64, "not both"),
        (["--from", "2026-11-21", "--to", "2026-11-21", "--audit-dir", "/nonexistent/audit"], 66, "/nonexistent/audit"),
        (["--from", "2026-11-21", "--to", "2026-11-21", "--config", "/nonexistent/passgate.yaml"], 78, "/nonexistent/passgate.yaml"),
    ])
    func failures(arguments: [String], status: Int32, message: String) async throws {
        let result = try await ProcessRunner.passgate(["usage"] + arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// CALLS, BILLABLE, NON-BILLABLE of the table's TOTAL row.
    static func totalRow(_ table: String) -> [Int] {
        guard let line = table.split(separator: "\n").last, line.hasPrefix("TOTAL") else { return [] }
        return line.split(separator: " ").dropFirst().compactMap { Int($0) }
    }
}
