import PassgateCore
import ProviderCMCC
import Foundation
import Logging
import MetricsTestKit
import PassgateAudit
import Testing

@Suite("Audit log writer: lines, rotation, durability, failures")
struct AuditLogWriterTests {
    @Test("N real carrier calls give N lines with exactly the documented fields and neither token nor phone number")
    func oneLinePerCall() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let phone = "13812345678"
        let carrier = FakeCarrier(phoneNumber: phone)
        let writer = try AuditLogWriter(path: "\(directory)/audit/audit.jsonl", maxFileBytes: 1 << 20, fsyncIntervalMs: 0, logger: Logger(label: "test"))
        var tokens: [String] = []
        var calls: [CarrierCall] = []
        for index in 0..<25 {
            let token = (index % 5 == 4 ? "spent" : "STsid") + String(repeating: "\(index % 10)", count: 40)
            tokens.append(token)
            let exchange = try await carrier.exchange(token: token)
            let call = try #require(exchange.call)
            calls.append(call)
            writer.record(AuditRecord(requestId: "req-\(index)", client: "shop-backend", appId: FakeCarrier.app.appId, call: call))
        }
        #expect(await writer.flush())
        await writer.shutdown()

        let lines = try AuditFixtures.lines("\(directory)/audit")
        #expect(lines.count == 25)
        let objects = try lines.map(AuditFixtures.object)
        for (index, object) in objects.enumerated() {
            #expect(Set(object.keys) == Set(AuditRecord.keys), "line \(index)")
            #expect(object["requestId"] as? String == "req-\(index)")
            #expect(object["msgid"] as? String == calls[index].msgid)
            #expect(object["billable"] as? Bool == (index % 5 != 4))
            #expect(object["rawCode"] as? String == (index % 5 == 4 ? "104201" : "103000"))
            #expect(object["normalizedCode"] as? String == (index % 5 == 4 ? "token_invalid" : "ok"))
        }
        let text = lines.joined(separator: "\n")
        #expect(!tokens.contains { text.contains($0) }, "no token in the log")
        #expect(!text.contains(phone) && !text.contains("8123456"), "no phone number, not even part of one")
        #expect(try AuditFixtures.permissions("\(directory)/audit") == 0o750)
        #expect(try AuditFixtures.permissions("\(directory)/audit/audit.jsonl") == 0o640)
        #expect(writer.status.writtenRecords == 25 && writer.status.isStopped)
    }

    @Test("rotation at a small maxFileBytes: several files, none over the limit, every line kept in order, names sort")
    func rotation() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        // maxFiles 0: every rotated file is kept, so every line can be checked (retention: AuditRetentionTests).
        let writer = try AuditLogWriter(path: "\(directory)/audit.jsonl", maxFileBytes: 4096, fsyncIntervalMs: 1000, maxFiles: 0, logger: Logger(label: "test"))
        let count = 300
        for index in 0..<count { writer.record(AuditFixtures.record(index)) }
        #expect(await writer.flush())
        await writer.shutdown()

        let files = try AuditFixtures.files(directory)
        let lineBytes = AuditFixtures.record(0).jsonLine().count
        #expect(files.count >= count * lineBytes / 4096, "\(files.count) files")
        #expect(files.last == "\(directory)/audit.jsonl", "the current file sorts after its rotated siblings")
        for file in files {
            #expect(try AuditFixtures.size(file) <= 4096, "\(file)")
            #expect(try AuditFixtures.permissions(file) == 0o640)
        }
        for rotated in files.dropLast() {
            let name = String(rotated.split(separator: "/").last!)
            #expect(name.wholeMatch(of: /audit-\d{8}T\d{6}Z-\d{4}\.jsonl/) != nil, "\(name)")
        }
        let msgids = try AuditFixtures.lines(directory).map { try AuditFixtures.object($0)["msgid"] as? String }
        #expect(msgids == (0..<count).map { AuditFixtures.record($0).msgid }, "concatenated in name order, the files give the records in order")
    }

    @Test("graceful shutdown of a ServiceGroup writes and fsyncs every record made before it, with a long fsync interval")
    func gracefulShutdownFlushes() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let writer = try AuditLogWriter(path: "\(directory)/audit.jsonl", maxFileBytes: 1 << 20, fsyncIntervalMs: 60_000, logger: Logger(label: "test"))
        let group = ServiceGroupHarness(writer)
        await withTaskGroup(of: Void.self) { tasks in
            for task in 0..<8 {
                tasks.addTask { for index in 0..<250 { writer.record(AuditFixtures.record(task * 1000 + index)) } }
            }
        }
        try await group.shutdownGracefully()
        #expect(writer.status.isStopped && writer.status.writtenRecords == 2000 && writer.status.bufferedRecords == 0)
        let lines = try AuditFixtures.lines(directory)
        #expect(lines.count == 2000)
        #expect(Set(try lines.map { try AuditFixtures.object($0)["requestId"] as? String }).count == 2000, "no line lost, torn or doubled")

        writer.record(AuditFixtures.record(99_999))  // after shutdown: refused, counted, no crash
        #expect(writer.status.droppedRecords == 1)
        #expect(try AuditFixtures.lines(directory).count == 2000)
    }

    @Test("with a write delay: a record made while the writer is idle is written without a flush; under load none is lost and shutdown writes the rest")
    func writeDelayBatchesWithoutLosing() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        // A delay far longer than the test: only the idle writer's own wake-up can write the first line.
        let writer = try AuditLogWriter(
            path: "\(directory)/audit.jsonl", maxFileBytes: 1 << 20, fsyncIntervalMs: 1000, writeDelayMs: 1000, logger: Logger(label: "test"))
        let group = ServiceGroupHarness(writer)
        writer.record(AuditFixtures.record(0))
        var written = false
        for _ in 0..<500 where !written {
            written = writer.status.writtenRecords == 1
            if !written { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(written, "the idle writer was woken for the first record")
        await withTaskGroup(of: Void.self) { tasks in
            for task in 1...4 {
                tasks.addTask { for index in 0..<250 { writer.record(AuditFixtures.record(task * 1000 + index)) } }
            }
        }
        #expect(await writer.flush(), "a flush does not wait out the delay")
        #expect(writer.status.writtenRecords == 1001 && writer.status.bufferedRecords == 0)
        for index in 0..<10 { writer.record(AuditFixtures.record(90_000 + index)) }
        try await group.shutdownGracefully()
        #expect(writer.status.writtenRecords == 1011 && writer.status.bufferedRecords == 0)
        #expect(Set(try AuditFixtures.lines(directory).map { try AuditFixtures.object($0)["requestId"] as? String }).count == 1011)
    }

    @Test("writeDelayMs below 0 is refused at start, naming it")
    func negativeWriteDelay() throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        #expect {
            try AuditLogWriter(path: "\(directory)/audit.jsonl", maxFileBytes: 4096, fsyncIntervalMs: 0, writeDelayMs: -1, logger: Logger(label: "test"))
        } throws: { ($0 as? AuditLogError)?.description.contains("writeDelayMs must be 0 or more") == true }
    }

    @Test("an audit directory that cannot be created is a clear error at start, naming the path")
    func uncreatableDirectory() throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        FileManager.default.createFile(atPath: "\(directory)/blocker", contents: Data("x".utf8))
        do {
            _ = try AuditLogWriter(path: "\(directory)/blocker/audit/audit.jsonl", maxFileBytes: 4096, fsyncIntervalMs: 0, logger: Logger(label: "test"))
            Issue.record("a path below a regular file must not open")
        } catch {
            #expect(error.path == "\(directory)/blocker")
            #expect(error.description.contains("cannot create the audit directory '\(directory)/blocker'"), "\(error)")
        }
        #expect(throws: AuditLogError.self) {
            try AuditLogWriter(path: "\(directory)/audit.jsonl", maxFileBytes: 100, fsyncIntervalMs: 0, logger: Logger(label: "test"))
        }
    }

    @Test("when the directory disappears and cannot be recreated, writes fail loudly without crashing; nothing is lost once it can")
    func writeFailureAndRecovery() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let metrics = TestMetrics()
        let (logger, logs) = CapturingLogHandler.logger()
        let auditDirectory = "\(directory)/audit"
        let writer = try AuditLogWriter(path: "\(auditDirectory)/audit.jsonl", maxFileBytes: 1 << 20, fsyncIntervalMs: 0, logger: logger, metricsFactory: metrics)
        for index in 0..<5 { writer.record(AuditFixtures.record(index)) }
        #expect(await writer.flush())

        // An operator removes the directory and something else takes its name.
        try FileManager.default.removeItem(atPath: auditDirectory)
        FileManager.default.createFile(atPath: auditDirectory, contents: Data("not a directory".utf8))
        for index in 5..<10 { writer.record(AuditFixtures.record(index)) }
        #expect(await writer.flush() == false)
        let failing = writer.status
        #expect(!failing.isHealthy && failing.bufferedRecords == 5)
        #expect(failing.lastError?.contains(auditDirectory) == true, "\(failing.lastError ?? "")")
        #expect(try metrics.expectCounter("passgate_audit_write_errors_total").totalValue >= 1)
        #expect(logs.contains(.error, "audit log write failed"))
        #expect(logs.contains(.warning, "moved or removed"))

        try FileManager.default.removeItem(atPath: auditDirectory)  // the way is clear again
        for index in 10..<12 { writer.record(AuditFixtures.record(index)) }
        #expect(await writer.flush())
        #expect(writer.isHealthy)
        #expect(logs.contains(.notice, "writable again"))
        await writer.shutdown()
        let requestIds = try AuditFixtures.lines(auditDirectory).map { try AuditFixtures.object($0)["requestId"] as? String }
        #expect(requestIds == (5..<12).map { "req-\($0)" }, "records made while failing were kept and written in order")
        #expect(try metrics.expectCounter("passgate_audit_records_written_total").totalValue == 12)
    }

    @Test("a file ending in a torn line (a crash mid-write) gets a newline first, so new lines stay whole")
    func tornLineIsTerminated() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let whole = String(decoding: AuditFixtures.record(0).jsonLine(), as: UTF8.self)
        let torn = String(whole.prefix(40))
        FileManager.default.createFile(atPath: "\(directory)/audit.jsonl", contents: Data((whole + torn).utf8))
        let writer = try AuditLogWriter(path: "\(directory)/audit.jsonl", maxFileBytes: 1 << 20, fsyncIntervalMs: 0, logger: Logger(label: "test"))
        writer.record(AuditFixtures.record(1))
        await writer.shutdown()
        let lines = try AuditFixtures.lines(directory)
        #expect(lines == [String(whole.dropLast()), torn, String(decoding: AuditFixtures.record(1).jsonLine().dropLast(), as: UTF8.self)])
    }

    @Test("past maxBufferedBytes new records are refused and counted, not queued without bound")
    func boundedBuffer() async throws {
        let directory = try AuditFixtures.temporaryDirectory()
        defer { AuditFixtures.remove(directory) }
        let metrics = TestMetrics()
        let (logger, logs) = CapturingLogHandler.logger()
        let auditDirectory = "\(directory)/audit"
        let lineBytes = AuditFixtures.record(0).jsonLine().count
        let configuration = AuditLogWriter.Configuration(path: "\(auditDirectory)/audit.jsonl", maxFileBytes: 1 << 20, fsyncIntervalMs: 0, maxBufferedBytes: lineBytes * 10)
        let writer = try AuditLogWriter(configuration: configuration, logger: logger, metricsFactory: metrics)
        try FileManager.default.removeItem(atPath: auditDirectory)
        FileManager.default.createFile(atPath: auditDirectory, contents: Data())  // every write now fails
        for index in 0..<25 { writer.record(AuditFixtures.record(index)) }
        #expect(writer.status.bufferedRecords == 10 && writer.status.droppedRecords == 15)
        #expect(try metrics.expectCounter("passgate_audit_records_dropped_total").totalValue == 15)
        #expect(logs.all.filter { $0.text.contains("audit record refused") }.count == 1, "logged once per run of refusals")
        try FileManager.default.removeItem(atPath: auditDirectory)
        await writer.shutdown()
        #expect(try AuditFixtures.lines(auditDirectory).count == 10)
    }
}
