import Foundation
import Logging
import PassgateCore
import Synchronization
import Testing

@testable import PassgateServer

/// Log lines through `StandardOutputSink`, into a pipe the test reads: directly, and from the
/// `pg-log` writer thread (whole, in order, urgent lines at once, a stuck pipe, after `close()`).
@Suite("standard output sink: log lines from a writer thread")
struct StandardOutputSinkTests {
    @Test("lines from many tasks arrive whole, each task's in its order, and close() writes every one")
    func manyWritersWholeAndOrdered() async throws {
        let pipe = try TestPipe()
        let drain = pipe.startDraining()  // more than the pipe's buffer holds
        let sink = StandardOutputSink(writeDelayMs: 50, descriptor: pipe.writeEnd)
        let tasks = 4, perTask = 500
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask { sink.write("task \(task) line \(index) " + String(repeating: "x", count: index % 37)) }
                }
            }
        }
        await sink.close()
        let lines = await pipe.closeAndReadLines(drain: drain)
        #expect(lines.count == tasks * perTask)
        for task in 0..<tasks {
            let own = lines.filter { $0.hasPrefix("task \(task) ") }
            #expect(own == (0..<perTask).map { "task \(task) line \($0) " + String(repeating: "x", count: $0 % 37) })
        }
        #expect(sink.droppedLines == 0)
    }

    @Test("a warning does not wait for the write delay, and the lines queued before it come out with it, first")
    func urgentLineWakesTheWriter() async throws {
        let pipe = try TestPipe()
        // A delay no test run reaches: only the urgent line can bring the second line out.
        let sink = StandardOutputSink(writeDelayMs: 600_000, descriptor: pipe.writeEnd)
        sink.write("first")  // the thread was idle: written at once, then it lingers
        let first = try pipe.readLines(count: 1, within: .seconds(60))
        #expect(first == ["first"])
        sink.write("second")
        sink.writeUrgently("third, a warning")
        let rest = try pipe.readLines(count: 2, within: .seconds(60))
        #expect(rest == ["second", "third, a warning"])
        await sink.close()
        _ = await pipe.closeAndReadLines()
    }

    @Test("while the pipe is full, lines beyond the memory cap are dropped, counted and reported once it drains")
    func stuckPipeDropsAndReports() async throws {
        let pipe = try TestPipe(capacity: 4096)
        let filler = try pipe.fill()
        let sink = StandardOutputSink(writeDelayMs: 5, maxBufferedBytes: 1_000, descriptor: pipe.writeEnd)
        let reported = Mutex(0)
        sink.reportDrops { count in reported.withLock { $0 += count } }
        // 100 lines of 50 bytes: the writer blocks on the first write, so only what fits in 1,000
        // bytes is kept, and it is always the oldest lines.
        let lines = (0..<100).map { String(format: "line %03d ", $0) + String(repeating: "y", count: 40) }
        for line in lines { sink.write(line) }
        let kept = 1_000 / 50
        #expect(sink.droppedLines == lines.count - kept)
        #expect(reported.withLock { $0 } == lines.count - kept, "each drop reported (passgate_log_lines_dropped_total)")
        let drained = pipe.startDraining()
        await sink.close()
        let output = await pipe.closeAndReadLines(drain: drained, skipping: filler)
        #expect(Array(output.prefix(kept)) == Array(lines.prefix(kept)))
        #expect(sink.counts.queuedBytes.load(ordering: .relaxed) == 0, "every byte counted as queued was written")
        // Usually one report; two when the writer took the first report before the last drop
        // (a busy host). Either way they follow the kept lines and add up to every drop.
        let notes = Array(output.dropFirst(kept))
        #expect((1...2).contains(notes.count), "\(notes)")
        var reportedInNotes = 0
        for note in notes {
            #expect(note.contains("\"level\":\"warning\"") && note.contains("log lines dropped"), "\(note)")
            let count = note.split(separator: "\"dropped\":\"").last.flatMap { Int($0.prefix { $0.isNumber }) }
            reportedInNotes += try #require(count, "\(note)")
        }
        #expect(reportedInNotes == lines.count - kept)
    }

    @Test("a line written after close() goes out directly, and direct mode writes before write() returns")
    func directWrites() async throws {
        let pipe = try TestPipe()
        let sink = StandardOutputSink(writeDelayMs: 5, descriptor: pipe.writeEnd)
        sink.write("queued")
        await sink.close()
        sink.write("after close")
        let direct = StandardOutputSink(descriptor: pipe.writeEnd)
        direct.write("direct")
        // Every byte is in the pipe already: no thread is left to write it.
        #expect(await pipe.closeAndReadLines() == ["queued", "after close", "direct"])
    }

    @Test("drops before reportDrops(to:) is set are reported once when it is")
    func dropsBeforeTheReportAreCounted() async throws {
        let pipe = try TestPipe(capacity: 4096)
        let filler = try pipe.fill()
        let sink = StandardOutputSink(writeDelayMs: 5, maxBufferedBytes: 100, descriptor: pipe.writeEnd)
        for index in 0..<10 { sink.write("line \(index) " + String(repeating: "z", count: 40)) }
        let reported = Mutex<[Int]>([])
        sink.reportDrops { count in reported.withLock { $0.append(count) } }
        sink.write("one more, dropped too " + String(repeating: "z", count: 40))
        #expect(reported.withLock { $0 } == [sink.droppedLines - 1, 1])
        let drain = pipe.startDraining()
        await sink.close()
        _ = await pipe.closeAndReadLines(drain: drain, skipping: filler)
    }

    @Test("flush() returns once every line written before it is in the descriptor")
    func flushWaitsForTheWrite() async throws {
        let pipe = try TestPipe()
        let sink = StandardOutputSink(writeDelayMs: 600_000, descriptor: pipe.writeEnd)
        sink.write("one")
        sink.write("two")
        await sink.flush()
        #expect(try pipe.readAvailable() == "one\ntwo\n")
        await sink.close()
        _ = await pipe.closeAndReadLines()
    }

    @Test("the log handler writes warnings and worse urgently, the rest as ordinary lines")
    func handlerMarksUrgentLines() {
        let sink = RecordingSink()
        var logger = Logger(label: "passgate.test") { JSONLogHandler(label: $0, level: .debug, sink: sink) }
        logger.logLevel = .debug
        logger.debug("d")
        logger.info("i")
        logger.notice("n")
        logger.warning("w")
        logger.error("e")
        logger.critical("c")
        #expect(sink.recorded.map(\.urgent) == [false, false, false, true, true, true])
        #expect(sink.recorded.map(\.line).allSatisfy { $0.hasPrefix("{\"ts\":") })
    }
}

/// Remembers each line and whether it came through `writeUrgently`.
private final class RecordingSink: LogSink {
    private let lines = Mutex<[(line: String, urgent: Bool)]>([])
    func write(_ line: String) { lines.withLock { $0.append((line, false)) } }
    func writeUrgently(_ line: String) { lines.withLock { $0.append((line, true)) } }
    var recorded: [(line: String, urgent: Bool)] { lines.withLock { $0 } }
}

/// A pipe whose write end the sink writes to and whose read end the test reads.
private final class TestPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32
    private let writeClosed = Atomic<Bool>(false)

    /// `capacity`: the kernel's buffer for the pipe (at least a page), when a test needs it small.
    init(capacity: Int? = nil) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        readEnd = ends[0]
        writeEnd = ends[1]
        // F_SETPIPE_SZ (1031), which Glibc does not export to Swift.
        if let capacity { _ = fcntl(writeEnd, 1031, Int32(capacity)) }
    }

    deinit {
        close(readEnd)
        if !writeClosed.load(ordering: .relaxed) { close(writeEnd) }
    }

    /// Fills the pipe's buffer from the test; returns how many bytes that took.
    func fill() throws -> Int {
        let flags = fcntl(writeEnd, F_GETFL)
        _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(writeEnd, F_SETFL, flags) }
        let chunk = [UInt8](repeating: UInt8(ascii: "f"), count: 512)
        var total = 0
        while true {
            let written = chunk.withUnsafeBytes { Foundation.write(writeEnd, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            total += written
        }
        return total
    }

    /// Reads the pipe on a thread of its own until every write end is closed.
    func startDraining() -> Drain {
        Drain(readEnd)
    }

    /// Closes the test's write end (the sink must be done with it) and returns every line read,
    /// by `drain` when the test started one (output beyond the pipe's buffer needs it running).
    func closeAndReadLines(drain: Drain? = nil, skipping prefix: Int = 0) async -> [String] {
        let drain = drain ?? startDraining()
        closeWriteEnd()
        return Self.lines(Array(await drain.bytes().dropFirst(prefix)))
    }

    /// Whatever the pipe holds now, without waiting.
    func readAvailable() throws -> String {
        var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 0) == 1 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { Foundation.read(readEnd, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    }

    /// Reads until `count` whole lines have arrived, failing after `within`.
    func readLines(count: Int, within limit: Duration) throws -> [String] {
        let deadline = ContinuousClock.now + limit
        var bytes: [UInt8] = []
        while bytes.filter({ $0 == 0x0A }).count < count {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw TimedOut(lines: Self.lines(bytes)) }
            var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(min(1_000, max(1, left.components.seconds * 1_000)))) == 1 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let read = buffer.withUnsafeMutableBytes { Foundation.read(readEnd, $0.baseAddress, $0.count) }
            if read <= 0 { break }
            bytes.append(contentsOf: buffer[0..<read])
        }
        return Self.lines(bytes)
    }

    private func closeWriteEnd() {
        if !writeClosed.exchange(true, ordering: .relaxed) { close(writeEnd) }
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    struct TimedOut: Error {
        let lines: [String]
    }
}

/// The bytes a dedicated thread reads from a pipe until end of file; `bytes()` waits for them.
private final class Drain: Sendable {
    private let state = Mutex<(bytes: [UInt8]?, waiter: CheckedContinuation<[UInt8], Never>?)>((nil, nil))

    init(_ readEnd: Int32) {
        Thread.detachNewThread { [self] in
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { Foundation.read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                bytes.append(contentsOf: buffer[0..<count])
            }
            let waiter = state.withLock { state in
                state.bytes = bytes
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: bytes)
        }
    }

    func bytes() async -> [UInt8] {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [UInt8]? in
                if let bytes = state.bytes { return bytes }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
