import Foundation
@testable import PassgateAudit
import Testing

@Suite("Usage report: reading lines fast, and every valid line still")
struct AuditLineParserTests {
    @Test("the fast reader gives exactly the record that was written", arguments: [true, false])
    func roundTrip(billable: Bool) throws {
        var record = AuditFixtures.record(42, at: 1_795_192_200_123, billable: billable)
        record.latencyMs = 0.125
        record.requestId = "请求-42"
        #expect(AuditLineParser.parse(ArraySlice(record.jsonLine().dropLast())) == record)
    }

    @Test("lines the writer would not write are left to JSONDecoder, and still count in the report")
    func fallback() throws {
        var escaped = AuditFixtures.record(1, at: 1_795_192_200_000)
        escaped.requestId = "quote\"inside"
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let reordered = try encoder.encode(AuditFixtures.record(2, at: 1_795_192_200_000))
        let spaced = Array(String(decoding: AuditFixtures.record(3, at: 1_795_192_200_000).jsonLine().dropLast(), as: UTF8.self)
            .replacingOccurrences(of: ",\"", with: ", \"").utf8)
        #expect(AuditLineParser.parse(ArraySlice(escaped.jsonLine().dropLast())) == nil)
        #expect(AuditLineParser.parse(ArraySlice(reordered)) == nil)
        #expect(AuditLineParser.parse(ArraySlice(spaced)) == nil)

        var report = UsageReport(query: UsageQuery(from: AuditDay("2026-11-21")!, to: AuditDay("2026-11-21")!))
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let text = escaped.jsonLine() + Array(reordered) + [0x0A] + spaced + [0x0A]
        FileManager.default.createFile(atPath: "\(directory)/a.jsonl", contents: Data(text))
        try report.readFile("\(directory)/a.jsonl")
        #expect(report.total.calls == 3 && report.malformedCount == 0)
    }

    @Test("truncated or damaged lines are refused by both readers", arguments: [
        "{\"time\":\"2026-11-21T00:00:00.000Z\"", "{}", "[1,2]", "{\"time\":\"2026-13-01T00:00:00.000Z\",\"requestId\":\"r\"}",
    ])
    func damaged(line: String) throws {
        #expect(AuditLineParser.parse(ArraySlice(Array(line.utf8))) == nil)
        var report = UsageReport(query: UsageQuery(from: AuditDay("2026-11-21")!, to: AuditDay("2026-11-21")!))
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        FileManager.default.createFile(atPath: "\(directory)/a.jsonl", contents: Data((line + "\n").utf8))
        try report.readFile("\(directory)/a.jsonl")
        #expect(report.malformedCount == 1 && report.total.calls == 0)
    }
}
