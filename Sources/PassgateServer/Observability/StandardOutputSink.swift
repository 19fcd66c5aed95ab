import DedicatedThreads
import Logging
import PassgateCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Log lines to standard output (or another descriptor), each whole and in the order written.
///
/// Two ways, chosen at creation:
/// - **Direct** (`writeDelayMs` 0; CLI commands, tests): each line is one `write(2)` from the
///   thread that logs it, so lines from many threads never interleave.
/// - **From a writer thread** (`writeDelayMs` > 0; `passgate serve`, `log.writeDelayMs`): a line
///   is queued (one short lock, no I/O) and one dedicated thread, `pg-log`, writes whatever is
///   queued with one `write`. After a write the thread sleeps at most `writeDelayMs`, and lines
///   logged meanwhile do not wake it; a line logged while it is idle, and every ``writeUrgently(_:)``
///   line (warnings and worse), wakes it at once. Under load a request then costs no system call
///   for its log line, and a log pipe that is slow to read holds this thread, not a request's.
///
/// While the descriptor does not take lines (a stuck log pipe), at most `maxBufferedBytes` wait in
/// memory; lines beyond are dropped and counted, and one line in the place of the first dropped
/// reports how many (`dropNote`). ``close()`` writes everything queued; lines logged after it are written
/// directly. What is queued when the process dies without ``close()`` (a crash, `SIGKILL`) is lost:
/// at most about `writeDelayMs` worth of lines that are not warnings.
public final class StandardOutputSink: LogSink {
    /// The descriptor lines go to.
    public let descriptor: Int32
    /// Bytes queued at most before lines are dropped.
    public let maxBufferedBytes: Int
    let counts = OutputCounts()
    /// `nil`: direct writes.
    let writer: BlockingWorkerPool<OutputWriterLoop>?

    /// - Parameters:
    ///   - writeDelayMs: 0 writes directly; more starts the writer thread (if the system refuses
    ///     the thread, lines are written directly).
    ///   - maxBufferedBytes: lines queued at most, in bytes, while the descriptor does not take them.
    ///   - descriptor: standard output unless a test passes a pipe.
    ///   - dropNote: the line that reports `count` dropped lines.
    public init(
        writeDelayMs: Int = 0, maxBufferedBytes: Int = 8 << 20, descriptor: Int32 = STDOUT_FILENO,
        dropNote: @escaping @Sendable (_ count: Int) -> String = { StandardOutputSink.dropNote($0, json: true) }
    ) {
        self.descriptor = descriptor
        self.maxBufferedBytes = max(1, maxBufferedBytes)
        guard writeDelayMs > 0 else {
            writer = nil
            return
        }
        let counts = counts
        writer = try? BlockingWorkerPool(
            threads: 1, name: { _ in "pg-log" }, maxJobsPerTake: .max, lingerAfterWork: .milliseconds(writeDelayMs),
            // A line the pool no longer takes (it has stopped) is written directly: never lost.
            reject: { job in
                switch job {
                case .line(let bytes):
                    counts.queuedBytes.subtract(bytes.count, ordering: .relaxed)
                    _ = DescriptorOutput.writeAll(bytes, to: descriptor)
                case .flush(let continuation):
                    continuation.resume()
                case .dropReport:
                    break
                }
            },
            makeWorker: { _ in OutputWriterLoop(descriptor: descriptor, counts: counts, dropNote: dropNote) })
    }

    deinit {
        // Let the thread write what is queued and exit; nobody can wait for it any more.
        writer?.drain()
    }

    public func write(_ line: String) {
        enqueue(line, urgent: false)
    }

    public func writeUrgently(_ line: String) {
        enqueue(line, urgent: true)
    }

    /// Returns once every line written before the call is in the descriptor (or dropped).
    public func flush() async {
        guard let writer else { return }
        await writer.perform { OutputJob.flush($0) }
    }

    /// Writes everything queued and stops the writer thread; later lines are written directly.
    /// Idempotent.
    public func close() async {
        guard let writer else { return }
        writer.drain()
        await writer.waitUntilStopped()
    }

    /// Lines dropped so far because the descriptor did not take them and the queue was full.
    public var droppedLines: Int { counts.droppedTotal.load(ordering: .relaxed) }

    public func reportDrops(to count: @escaping @Sendable (Int) -> Void) {
        let earlier = counts.dropReport.withLock { report in
            report = count
            return counts.droppedTotal.load(ordering: .relaxed)
        }
        if earlier > 0 { count(earlier) }
    }

    private func enqueue(_ line: String, urgent: Bool) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        guard let writer else {
            _ = DescriptorOutput.writeAll(bytes, to: descriptor)
            return
        }
        let queued = counts.queuedBytes.add(bytes.count, ordering: .relaxed).newValue
        guard queued <= maxBufferedBytes else {
            counts.queuedBytes.subtract(bytes.count, ordering: .relaxed)
            // Counted under the lock `reportDrops` takes, so no drop is reported twice or missed;
            // reported outside it.
            let report = counts.dropReport.withLock { report in
                counts.droppedTotal.add(1, ordering: .relaxed)
                return report
            }
            report?(1)
            // The first line dropped since the last report queues the report in its place.
            if counts.dropped.add(1, ordering: .relaxed).newValue == 1 { writer.submit(.dropReport, deferrable: true) }
            return
        }
        writer.submit(.line(bytes), deferrable: !urgent)
    }

    /// The drop report: a line at warning level from logger `passgate.log`, as JSON or as text.
    public static func dropNote(_ count: Int, json: Bool) -> String {
        JSONLogHandler.line(
            level: .warning, label: "passgate.log",
            message: "log lines dropped: standard output did not take them fast enough and the queue in memory was full",
            fields: [("dropped", .stringConvertible(count))], json: json)
    }
}

/// What callers and the writer thread share, without a lock.
final class OutputCounts: Sendable {
    /// Bytes submitted to the writer and not yet written.
    let queuedBytes = Atomic<Int>(0)
    /// Lines dropped and not yet reported; the first of them queued a ``OutputJob/dropReport``.
    let dropped = Atomic<Int>(0)
    /// Lines dropped since start.
    let droppedTotal = Atomic<Int>(0)
    /// Told each drop once set (`reportDrops(to:)`); guards `droppedTotal`'s changes as well.
    let dropReport = Mutex<(@Sendable (Int) -> Void)?>(nil)
}

/// A job for the writer thread.
enum OutputJob: Sendable {
    case line([UInt8])
    case flush(CheckedContinuation<Void, Never>)
    /// Where the first line dropped since the last report would have been: the report goes there.
    case dropReport
}
