import PassgateCore
import Foundation
@testable import PassgateAudit
import Testing

@Suite("Audit record: one JSON line, fixed keys")
struct AuditRecordTests {
    @Test("a line is one JSON object ending in a newline, with exactly the documented keys in order")
    func lineShape() throws {
        let line = String(decoding: AuditFixtures.record(7).jsonLine(), as: UTF8.self)
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
        let object = try AuditFixtures.object(line)
        #expect(Set(object.keys) == Set(AuditRecord.keys) && object.count == AuditRecord.keys.count)
        let positions = AuditRecord.keys.map { line.range(of: "\"\($0)\":")!.lowerBound }
        #expect(positions == positions.sorted(), "keys appear in AuditRecord.keys order")
        #expect(object["time"] as? String == "2026-11-20T10:35:00.000Z")
        #expect(object["billable"] as? Bool == true && object["latencyMs"] as? Double == 12.5)
        #expect(object["carrierTaskId"] as? String == "task-7")
    }

    @Test("absent values are written as null, so every line has the same keys")
    func nullsKeepTheShape() throws {
        let object = try AuditFixtures.object(String(decoding: AuditFixtures.record(1, billable: false).jsonLine(), as: UTF8.self))
        #expect(object["carrierTaskId"] is NSNull)
        #expect(object.count == AuditRecord.keys.count)
    }

    @Test("quotes, backslashes, control characters and non-ASCII text stay inside one line and decode back")
    func escaping() throws {
        var record = AuditFixtures.record(2)
        record.requestId = "a\"b\\c\nd\re\tf\u{1}g\u{7F}-请求"
        let bytes = record.jsonLine()
        #expect(bytes.filter { $0 == 0x0A }.count == 1 && bytes.last == 0x0A)
        let decoded = try JSONDecoder().decode(AuditRecord.self, from: Data(bytes))
        #expect(decoded == record)
    }

    @Test("JSONDecoder and the Codable encoding round-trip a record", arguments: [false, true])
    func roundTrip(billable: Bool) throws {
        let record = AuditFixtures.record(3, at: 1_795_191_000_123, billable: billable)
        #expect(try JSONDecoder().decode(AuditRecord.self, from: Data(record.jsonLine())) == record)
        #expect(try JSONDecoder().decode(AuditRecord.self, from: JSONEncoder().encode(record)) == record)
    }

    @Test("the trace id is written when the request was traced, null otherwise; a line from before tracing (no traceId key) still reads")
    func traceId() throws {
        var record = AuditFixtures.record(4)
        #expect(try AuditFixtures.object(String(decoding: record.jsonLine(), as: UTF8.self))["traceId"] is NSNull)
        record.traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
        let line = record.jsonLine()
        #expect(try AuditFixtures.object(String(decoding: line, as: UTF8.self))["traceId"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(try JSONDecoder().decode(AuditRecord.self, from: Data(line)) == record)
        #expect(try AuditRecord.read(line[...]).get() == record)
        let old = String(decoding: AuditFixtures.record(4).jsonLine(), as: UTF8.self).replacingOccurrences(of: ",\"traceId\":null", with: "")
        #expect(!old.contains("traceId"))
        #expect(try JSONDecoder().decode(AuditRecord.self, from: Data(old.utf8)) == AuditFixtures.record(4))
        #expect(try AuditRecord.read(Array(old.utf8)[...]).get() == AuditFixtures.record(4))
    }

    @Test("built from the core's CarrierCall, the record copies every fact and adds the request's identity")
    func fromCarrierCall() throws {
        let call = CarrierCall(
            provider: "cmcc", operation: .verify, msgid: "ABCDEF", taskId: "t-1", rawCode: "001", normalizedCode: "ok", billable: true,
            latencyMs: 3.25, host: "onekey2.cmpassport.com")
        let time = Date(timeIntervalSince1970: 1_795_170_900.456)
        let record = AuditRecord(time: time, requestId: "r-1", client: "risk", appId: "300022222222", call: call)
        #expect(record.timeMilliseconds == 1_795_170_900_456)
        #expect(record.operation == "verify" && record.msgid == "ABCDEF" && record.carrierTaskId == "t-1" && record.rawCode == "001")
        #expect(record.billable && record.latencyMs == 3.25 && record.host == "onekey2.cmpassport.com")
        #expect(record.requestId == "r-1" && record.client == "risk" && record.appId == "300022222222")
    }

    @Test("ISO-8601 times: written in UTC with milliseconds whatever TZ says; parsing rejects other shapes")
    func isoTimes() {
        #expect(AuditTime.iso8601(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(AuditTime.iso8601(milliseconds: 1_795_170_900_123) == "2026-11-20T10:35:00.123Z")
        #expect(AuditTime.iso8601(milliseconds: 1_709_251_199_999) == "2024-02-29T23:59:59.999Z")
        #expect(AuditTime.parseISO8601("2024-02-29T23:59:59.999Z") == 1_709_251_199_999)
        #expect(AuditTime.parseISO8601("2026-11-20T10:35:00Z") == 1_795_170_900_000)
        #expect(AuditTime.parseISO8601("2026-11-20T10:35:00.1234567Z") == 1_795_170_900_123)
        for bad in ["2026-11-20T10:35:00.123", "2026-11-20 07:55:00.123Z", "2026-02-30T00:00:00.000Z", "2026-11-20T24:00:00.000Z",
                    "2026-11-20T10:35:00.Z", "2026-11-20T10:35:00+08:00", ""] {
            #expect(AuditTime.parseISO8601(bad) == nil, "\(bad)")
        }
    }

    @Test("days: parsed strictly, compared in order, and taken in a fixed offset")
    func days() throws {
        #expect(AuditDay("2026-11-21")?.description == "2026-11-21")
        for bad in ["2026-11-31", "2026-2-01", "20261121", "2026-11-21T00", "1969-12-31", "abcd-ef-gh"] { #expect(AuditDay(bad) == nil, "\(bad)") }
        let instant = try #require(AuditTime.parseISO8601("2026-11-20T16:30:00.000Z"))
        #expect(AuditDay(milliseconds: instant, offsetMilliseconds: UsageDayZone.beijing.offsetMilliseconds) == AuditDay("2026-11-21"))
        #expect(AuditDay(milliseconds: instant, offsetMilliseconds: 0) == AuditDay("2026-11-20"))
        #expect(try #require(AuditDay("2026-11-20")) < #require(AuditDay("2026-12-01")))
    }
}
