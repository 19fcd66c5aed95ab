import Foundation
@testable import PassgateAudit
import Testing

@Suite("Usage report: every valid audit line is read, whatever its spelling")
struct AuditRecordReadingTests {
    @Test("a written line reads back as exactly the record that was written", arguments: [true, false])
    func roundTrip(billable: Bool) throws {
        var record = AuditFixtures.record(42, at: 1_795_192_200_123, billable: billable)
        record.latencyMs = 0.125
        record.requestId = "请求-42"
        record.carrierTaskId = nil
        #expect(try AuditRecord.read(ArraySlice(record.jsonLine().dropLast())).get() == record)
    }

    @Test("lines another tool rewrote (escapes, other key order, spaces) read the same and count in the report")
    func rewrittenLines() throws {
        var escaped = AuditFixtures.record(1, at: 1_795_192_200_000)
        escaped.requestId = "quote\"inside"
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let reordered = try encoder.encode(AuditFixtures.record(2, at: 1_795_192_200_000))
        let spaced = Array(String(decoding: AuditFixtures.record(3, at: 1_795_192_200_000).jsonLine().dropLast(), as: UTF8.self)
            .replacingOccurrences(of: ",\"", with: ", \"").utf8)
        #expect(try AuditRecord.read(ArraySlice(escaped.jsonLine().dropLast())).get() == escaped)
        #expect(try AuditRecord.read(ArraySlice(reordered)).get() == AuditFixtures.record(2, at: 1_795_192_200_000))
        #expect(try AuditRecord.read(ArraySlice(spaced)).get() == AuditFixtures.record(3, at: 1_795_192_200_000))

        var report = UsageReport(query: UsageQuery(from: AuditDay("2026-11-21")!, to: AuditDay("2026-11-21")!))
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let text = escaped.jsonLine() + Array(reordered) + [0x0A] + spaced + [0x0A]
        FileManager.default.createFile(atPath: "\(directory)/a.jsonl", contents: Data(text))
        try report.readFile("\(directory)/a.jsonl")
        #expect(report.total.calls == 3 && report.malformedCount == 0)
    }

    @Test("truncated or damaged lines are refused with what is wrong", arguments: [
        ("{\"time\":\"2026-11-21T00:00:00.000Z\"", "invalid JSON"), ("{}", "missing 'time'"), ("[1,2]", "invalid JSON"),
        ("{\"time\":\"2026-13-01T00:00:00.000Z\",\"requestId\":\"r\"}", "bad 'time'"),
        ("{\"time\":\"2026-11-21T00:00:00.000Z\",\"requestId\":7}", "wrong type for 'requestId'"),
    ])
    func damaged(line: String, reason: String) throws {
        #expect(throws: AuditRecord.LineProblem(reason: reason)) { try AuditRecord.read(ArraySlice(Array(line.utf8))).get() }
        var report = UsageReport(query: UsageQuery(from: AuditDay("2026-11-21")!, to: AuditDay("2026-11-21")!))
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        FileManager.default.createFile(atPath: "\(directory)/a.jsonl", contents: Data((line + "\n").utf8))
        try report.readFile("\(directory)/a.jsonl")
        #expect(report.malformedCount == 1 && report.total.calls == 0)
    }
}
