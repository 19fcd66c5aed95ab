import PassgateCore
import PassgateTestSupport
import Foundation
import Logging
import MetricsTestKit
import PassgateAudit
import Testing

@Suite("Audit log retention: maxFiles and maxAgeDays")
struct AuditRetentionTests {
    static let deleted = "passgate_audit_files_deleted_total"
    static let errors = "passgate_audit_retention_errors_total"

    @Test("rotating past maxFiles deletes the oldest rotated files and keeps exactly maxFiles, the newest, with every recent line")
    func maxFilesKeepsTheNewest() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let metrics = TestMetrics()
        let (logger, logs) = CapturingLogHandler.logger()
        let configuration = AuditLogWriter.Configuration(path: "\(directory)/audit.jsonl", maxFileBytes: 4096, fsyncIntervalMs: 1000, maxFiles: 3)
        let writer = try AuditLogWriter(configuration: configuration, logger: logger, metricsFactory: metrics, clock: ManualClock(milliseconds: AuditFixtures.now))
        let count = 300
        for index in 0..<count { writer.record(AuditFixtures.record(index)) }
        #expect(await writer.flush())
        await writer.shutdown()

        let rotations = logs.all.filter { $0.text.contains("audit file rotated") }.count
        #expect(rotations > 10, "\(rotations) rotations")
        let names = try AuditFixtures.names(directory)
        #expect(names.count == 4 && names.last == "audit.jsonl", "\(names)")
        // The clock stood still, so the names differ by sequence only: the three highest remain.
        #expect(names.dropLast().compactMap(AuditFixtures.sequence) == [rotations - 2, rotations - 1, rotations], "\(names)")
        #expect(try metrics.expectCounter(Self.deleted).totalValue == Int64(rotations - 3))
        #expect(try metrics.expectCounter(Self.errors).totalValue == 0)
        #expect(logs.all.filter { $0.level == .info && $0.text.contains("deleted by retention") }.count == rotations - 3)

        // What remains is the newest records, unbroken, and `passgate usage` counts exactly them.
        let msgids = try AuditFixtures.lines(directory).map { try AuditFixtures.object($0)["msgid"] as? String }
        #expect(msgids.count > 3 * (4096 / AuditFixtures.record(0).jsonLine().count) - 3)
        #expect(msgids == ((count - msgids.count)..<count).map { AuditFixtures.record($0).msgid })
        let day = AuditDay("2026-11-20")!
        let report = try UsageReport.read(directory: directory, query: UsageQuery(from: day, to: day))
        #expect(report.total.calls == msgids.count && report.malformedCount == 0 && report.filesRead.count == 4)
    }

    @Test("files left by an earlier run beyond maxFiles are deleted at start-up, oldest first; the current file is untouched")
    func startUpCleanup() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let metrics = TestMetrics()
        let (logger, logs) = CapturingLogHandler.logger()
        let earlier = try (1...6).map { try AuditFixtures.placeRotated(directory, at: AuditFixtures.now - Int64(7 - $0) * AuditFixtures.hour) }
        let current = AuditFixtures.record(99).jsonLine()
        try Data(current).write(to: URL(fileURLWithPath: "\(directory)/audit.jsonl"))

        let configuration = AuditLogWriter.Configuration(path: "\(directory)/audit.jsonl", maxFiles: 2)
        let writer = try AuditLogWriter(configuration: configuration, logger: logger, metricsFactory: metrics, clock: ManualClock(milliseconds: AuditFixtures.now))
        #expect(await writer.flush())  // the start-up pass runs before the thread takes any work
        #expect(try AuditFixtures.files(directory) == Array(earlier.suffix(2)) + ["\(directory)/audit.jsonl"])
        #expect(try metrics.expectCounter(Self.deleted).totalValue == 4)
        let deletions = logs.all.filter { $0.text.contains("deleted by retention") }
        #expect(deletions.count == 4)
        #expect(zip(deletions, earlier.prefix(4)).allSatisfy { $0.text.contains("path=\($1)") && $0.text.contains("trigger=start-up") }, "oldest first")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/audit.jsonl"))) == current)
        await writer.shutdown()
    }

    @Test("rotated files older than maxAgeDays go at start-up and when the clock moves on without a rotation; age is the name's stamp, not the mtime")
    func ageLimit() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let metrics = TestMetrics()
        let now = AuditFixtures.now
        let day = AuditFixtures.day
        let fortyDays = try AuditFixtures.placeRotated(directory, at: now - 40 * day, modified: now)  // a fresh mtime changes nothing
        let thirtyOne = try AuditFixtures.placeRotated(directory, at: now - 31 * day)
        let twentyNine = try AuditFixtures.placeRotated(directory, at: now - 29 * day)
        let yesterday = try AuditFixtures.placeRotated(directory, at: now - day, modified: now - 100 * day)  // an old mtime neither
        let future = try AuditFixtures.placeRotated(directory, at: now + 3 * day)  // stamped while the clock was ahead

        let clock = ManualClock(milliseconds: now)
        let configuration = AuditLogWriter.Configuration(path: "\(directory)/audit.jsonl", maxFiles: 0, maxAgeDays: 30)
        let writer = try AuditLogWriter(configuration: configuration, logger: Logger(label: "test"), metricsFactory: metrics, clock: clock)
        #expect(await writer.flush())
        var remaining = Set(try AuditFixtures.files(directory))
        #expect(!remaining.contains(fortyDays) && !remaining.contains(thirtyOne))
        #expect(remaining.isSuperset(of: [twentyNine, yesterday, future]))
        #expect(try metrics.expectCounter(Self.deleted).totalValue == 2)

        clock.advance(milliseconds: 2 * AuditFixtures.day)  // the 29-day-old file is now 31 days old; no rotation is due
        writer.record(AuditFixtures.record(1))
        #expect(await writer.flush())
        remaining = Set(try AuditFixtures.files(directory))
        #expect(remaining == [yesterday, future, "\(directory)/audit.jsonl"])
        #expect(try metrics.expectCounter(Self.deleted).totalValue == 3)
        await writer.shutdown()
    }

    @Test("only the writer's own rotated-file names are ever deleted, however old or many the others are")
    func foreignNamesAreKept() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let metrics = TestMetrics()
        let old = AuditFixtures.now - 2000 * AuditFixtures.day
        let stamp = AuditFixtures.rotatedName(at: old).dropFirst("audit-".count).dropLast("-0001.jsonl".count)
        let foreign = [
            "notes.txt", "host-a-audit.jsonl", "audit.jsonl.1", "audit-\(stamp)-0001.jsonl.gz", "audit-\(stamp)-0001.jsonl.tmp",
            "other-\(stamp)-0001.jsonl", "audit-x-\(stamp)-0001.jsonl", "Audit-\(stamp)-0001.jsonl", "audit-\(stamp)-0001.JSONL",
            "audit-\(stamp).jsonl", "audit-\(stamp)-01.jsonl", "audit-\(stamp)-0000.jsonl", "audit-\(stamp)-00a1.jsonl",
            "audit-20201301T000000Z-0001.jsonl", "audit-20200101T250000Z-0001.jsonl", "audit-20200101-000000Z-0001.jsonl",
            "audit--\(stamp)-0001.jsonl", "audit-\(stamp)-0001-0001.jsonl",
        ]
        for name in foreign {
            try Data(AuditFixtures.record(0).jsonLine()).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
        }
        let own = try (1...3).map { try AuditFixtures.placeRotated(directory, at: old, sequence: $0) }

        let configuration = AuditLogWriter.Configuration(path: "\(directory)/audit.jsonl", maxFiles: 1, maxAgeDays: 1)
        let writer = try AuditLogWriter(configuration: configuration, logger: Logger(label: "test"), metricsFactory: metrics, clock: ManualClock(milliseconds: AuditFixtures.now))
        #expect(await writer.flush())
        await writer.shutdown()
        #expect(try AuditFixtures.names(directory) == (foreign + ["audit.jsonl"]).sorted())
        #expect(own.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        #expect(try metrics.expectCounter(Self.deleted).totalValue == 3)
    }

    @Test("a rotated name that cannot be deleted (a directory took it) is logged with path and reason, counted, and writing goes on")
    func deletionFailure() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let metrics = TestMetrics()
        let (logger, logs) = CapturingLogHandler.logger()
        let blocked = "\(directory)/\(AuditFixtures.rotatedName(at: AuditFixtures.now - 3 * AuditFixtures.hour))"
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: "\(blocked)/inside", contents: Data("x".utf8)))
        let older = try AuditFixtures.placeRotated(directory, at: AuditFixtures.now - 2 * AuditFixtures.hour)
        let newer = try AuditFixtures.placeRotated(directory, at: AuditFixtures.now - AuditFixtures.hour)

        let configuration = AuditLogWriter.Configuration(path: "\(directory)/audit.jsonl", maxFileBytes: 4096, fsyncIntervalMs: 0, maxFiles: 1)
        let writer = try AuditLogWriter(configuration: configuration, logger: logger, metricsFactory: metrics, clock: ManualClock(milliseconds: AuditFixtures.now))
        #expect(await writer.flush())
        #expect(try metrics.expectCounter(Self.errors).totalValue == 1)
        #expect(!FileManager.default.fileExists(atPath: older), "the failure does not stop the other deletions")
        #expect(FileManager.default.fileExists(atPath: newer), "nor does it cost a younger file its place")
        let failure = try #require(logs.all.first { $0.level == .error && $0.text.contains("cannot delete") })
        #expect(failure.text.contains("path=\(blocked)") && failure.text.contains("Is a directory"), "\(failure.text)")

        // Rotations go on; each retention pass tries (and counts) again.
        for index in 0..<40 { writer.record(AuditFixtures.record(index)) }
        #expect(await writer.flush())
        await writer.shutdown()
        #expect(writer.status.writtenRecords == 40 && writer.status.droppedRecords == 0 && writer.status.lastError == nil)
        #expect(try metrics.expectCounter("passgate_audit_write_errors_total").totalValue == 0)
        #expect(try metrics.expectCounter(Self.errors).totalValue >= 2)
        #expect(FileManager.default.fileExists(atPath: "\(blocked)/inside"), "a directory is never removed")
        #expect(!FileManager.default.fileExists(atPath: newer))
        let rotated = try AuditFixtures.names(directory).filter { $0 != "audit.jsonl" && "\(directory)/\($0)" != blocked }
        #expect(rotated.count == 1, "\(rotated)")
    }

    @Test("after the clock steps back, a new rotated file still sorts after the others, so retention deletes the oldest and not it")
    func clockStepBack() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let ahead = try AuditFixtures.placeRotated(directory, at: AuditFixtures.now + 2 * AuditFixtures.hour)  // rotated while the clock was ahead
        let configuration = AuditLogWriter.Configuration(path: "\(directory)/audit.jsonl", maxFileBytes: 4096, fsyncIntervalMs: 0, maxFiles: 1)
        let writer = try AuditLogWriter(configuration: configuration, logger: Logger(label: "test"), clock: ManualClock(milliseconds: AuditFixtures.now))
        let perFile = 4096 / AuditFixtures.record(0).jsonLine().count
        for index in 0..<(perFile + 1) { writer.record(AuditFixtures.record(index)) }  // exactly one rotation
        #expect(await writer.flush())
        await writer.shutdown()
        let names = try AuditFixtures.names(directory)
        #expect(names == [AuditFixtures.rotatedName(at: AuditFixtures.now + 2 * AuditFixtures.hour, sequence: 2), "audit.jsonl"], "\(names)")
        #expect(!FileManager.default.fileExists(atPath: ahead))
        let kept = try String(contentsOfFile: "\(directory)/\(names[0])", encoding: .utf8)
        #expect(kept.hasPrefix(String(decoding: AuditFixtures.record(0).jsonLine(), as: UTF8.self)), "the file just rotated is the one kept")
    }

    @Test("negative limits are refused at start")
    func negativeLimits() throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        for configuration in [
            AuditLogWriter.Configuration(path: "\(directory)/audit.jsonl", maxFiles: -1),
            AuditLogWriter.Configuration(path: "\(directory)/audit.jsonl", maxAgeDays: -1),
        ] {
            #expect(throws: AuditLogError.self) { try AuditLogWriter(configuration: configuration, logger: Logger(label: "test")) }
        }
    }

    @Test("a typical line is 392 bytes: the figure behind docs/audit-log.md's retention arithmetic")
    func typicalLineSize() throws {
        let record = try #require(AuditRecord(
            timeMilliseconds: AuditFixtures.now, requestId: UUID().uuidString.lowercased(), client: "shop-backend", appId: "300011111111",
            provider: "cmcc", operation: "phone_number", msgid: String(repeating: "8b0d3f1a", count: 4),
            carrierTaskId: String(repeating: "b2c4d6e8", count: 4), rawCode: "103000", normalizedCode: "ok", billable: true, latencyMs: 48.731,
            host: "www.cmpassport.com"))
        #expect(record.jsonLine().count == 392)
    }
}
