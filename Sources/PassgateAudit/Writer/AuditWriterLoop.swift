import PassgateCore
import CoreMetrics
import DedicatedThreads
import Logging

/// The writer thread's work, as the one `BlockingWorker` of the writer's pool: take queued lines,
/// append them, rotate, delete what retention says, fsync, retry after failures, and drain on
/// shutdown. Its state lives on that one thread; it shares only `AuditWriterShared`.
///
/// Each wake-up takes every job queued (lines into `backlog`, flush requests into `flushers`),
/// then one pass in ``idle(draining:)`` writes the backlog in as few `write`s as fit and fsyncs
/// when due. ``wakeUpAt`` brings the thread back for an fsync, a retry or the hourly age check.
final class AuditWriterLoop: BlockingWorker {
    struct Parts: Sendable {
        let shared: AuditWriterShared
        let configuration: AuditLogWriter.Configuration
        let logger: Logger
        let metrics: AuditMetrics
        let clock: any PassgateClock
    }

    /// Pause between attempts while the disk refuses.
    static let retryNanoseconds: Int64 = 1_000_000_000
    /// Pause between the final attempts at shutdown, and how many there are.
    static let shutdownRetryNanoseconds: Int64 = 200_000_000
    static let shutdownAttempts = 5
    /// How often rotated files are checked against `maxAgeDays` between rotations.
    static let ageCheckNanoseconds: Int64 = 3_600_000_000_000

    let parts: Parts
    private var file: AuditFile?
    /// Lines taken from the queue and not yet appended, oldest first.
    private var backlog: [[UInt8]] = []
    /// Flush requests taken from the queue, answered at the end of the next pass.
    private var flushers: [CheckedContinuation<Bool?, Never>] = []
    /// Appended since the last fsync.
    private var dirty = false
    private var lastSync = monotonicNanoseconds()
    /// While failing: when to try again.
    private var retryAt: Int64?
    private var failedShutdownAttempts = 0
    let retention: AuditRetention
    /// The last retention pass, on the monotonic clock and on the wall clock (see `ageCheckIsDue`).
    var lastRetention: (monotonic: Int64, wall: Int64) = (0, 0)

    /// Runs on the writer thread, before it takes any job: the start-up retention pass deletes
    /// files an earlier run left beyond the limits.
    init(_ parts: Parts, file: AuditFile) {
        self.parts = parts
        self.file = file
        retention = AuditRetention(path: parts.configuration.path, maxFiles: parts.configuration.maxFiles, maxAgeDays: parts.configuration.maxAgeDays)
        enforceRetention(.startUp)
    }

    private var path: String { parts.configuration.path }
    private var syncInterval: Int64 { Int64(parts.configuration.fsyncIntervalMs) * 1_000_000 }

    // MARK: BlockingWorker

    func perform(_ job: AuditJob) {
        switch job {
        case .line(let line): backlog.append(line)
        case .flush(let continuation): flushers.append(continuation)
        }
    }

    /// One pass: append the backlog, fsync when due (always when a flush waits or the pool
    /// drains), check retention's age limit, answer the flushers. While failing, nothing is
    /// attempted before the retry time unless a flush waits. Returns, while draining, whether the
    /// writer is done: everything written and fsynced, or the last shutdown attempt failed.
    func idle(draining: Bool) -> Bool {
        let backingOff = retryAt.map { $0 > monotonicNanoseconds() } ?? false
        if backingOff && flushers.isEmpty { return backlog.isEmpty && !dirty }
        var clean = backlog.isEmpty || writeBacklog()
        let syncDue = parts.configuration.fsyncIntervalMs == 0 || monotonicNanoseconds() >= lastSync + syncInterval
        if dirty, syncDue || !flushers.isEmpty || draining {
            clean = syncFile() && clean
        }
        if !draining, ageCheckIsDue { enforceRetention(.ageCheck) }
        let flushed = clean && backlog.isEmpty && !dirty
        for flusher in flushers { flusher.resume(returning: flushed) }
        flushers.removeAll()
        guard draining, !flushed else { return true }
        failedShutdownAttempts += 1
        guard failedShutdownAttempts < Self.shutdownAttempts else { return true }
        retryAt = monotonicNanoseconds() + Self.shutdownRetryNanoseconds
        return false
    }

    var wakeUpAt: ContinuousClock.Instant? {
        nextDeadline().map { ContinuousClock.now + .nanoseconds($0 - monotonicNanoseconds()) }
    }

    /// When the next fsync or retry is due; `nil` to wait for work only. While failing, nothing
    /// is attempted before the retry time.
    private func nextDeadline() -> Int64? {
        let work: Int64?
        if let retryAt {
            work = dirty || !backlog.isEmpty ? retryAt : nil
        } else {
            work = dirty ? lastSync + syncInterval : nil
        }
        guard retention.maxAgeDays > 0 else { return work }
        let ageCheck = lastRetention.monotonic + Self.ageCheckNanoseconds  // files age on an idle instance too
        return min(work ?? ageCheck, ageCheck)
    }

    // MARK: Writing

    /// Appends the backlog, rotating as needed; `false` (with the rest kept) on failure.
    private func writeBacklog() -> Bool {
        guard openIfNeeded() else { return false }
        let limit = parts.configuration.maxFileBytes
        var next = 0
        defer { backlog.removeFirst(next) }
        while next < backlog.count {
            guard var current = file else { return false }
            if current.size > 0, current.size + backlog[next].count > limit {
                guard rotate() else { return false }
                continue
            }
            // As many lines as fit; a single line longer than the limit goes alone into an empty file.
            var end = next
            var bytes = 0
            while end < backlog.count, current.size + bytes + backlog[end].count <= limit || current.size + bytes == 0 {
                bytes += backlog[end].count
                end += 1
            }
            var chunk = [UInt8]()
            chunk.reserveCapacity(bytes)
            for index in next..<end { chunk.append(contentsOf: backlog[index]) }
            let (written, error) = current.append(chunk)
            file = current
            var complete = 0
            var covered = 0
            while next + complete < end, covered + backlog[next + complete].count <= written {
                covered += backlog[next + complete].count
                complete += 1
            }
            if written > 0 { dirty = true }
            counted(complete, bytes: covered)
            next += complete
            if let error {
                // A line torn by the failure is rewritten whole; reopening first ends the torn
                // piece with a newline so the two never merge.
                closeFile()
                fail(error)
                return false
            }
        }
        recovered()
        return true
    }

    /// Ensures the file is open and still the one at `path` (not removed or replaced).
    private func openIfNeeded() -> Bool {
        if let current = file {
            guard !current.isStillAtPath else { return true }
            parts.logger.warning(
                "audit file was moved or removed by something else; starting a new one at the configured path",
                metadata: ["path": "\(path)"])
            closeFile()
        }
        do {
            file = try AuditFile(path: path)
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// fsync, close, rename to a timestamped sibling, open a fresh file.
    private func rotate() -> Bool {
        guard syncFile() else { return false }
        file?.close()
        file = nil
        do {
            let rotated = try AuditFile.rotate(path, nowMilliseconds: parts.clock.nowMilliseconds())
            parts.logger.info("audit file rotated", metadata: ["path": "\(path)", "rotatedTo": "\(rotated)"])
        } catch {
            fail(error)
            return false
        }
        // Before the new file takes a byte: on disk at most (maxFiles + 1) × maxFileBytes.
        enforceRetention(.rotation)
        return openIfNeeded()
    }

    private func syncFile() -> Bool {
        guard let current = file else {
            dirty = false
            return true
        }
        do {
            try current.sync()
            dirty = false
            lastSync = monotonicNanoseconds()
            if backlog.isEmpty { recovered() }
            return true
        } catch {
            fail(error)
            return false
        }
    }

    private func closeFile() {
        if dirty { try? file?.sync() }
        file?.close()
        file = nil
        dirty = false
    }

    // MARK: Health

    private func counted(_ lines: Int, bytes: Int) {
        guard lines > 0 else { return }
        parts.shared.withLock { state in
            state.written += lines
            state.queuedBytes -= bytes
        }
        parts.metrics.written.increment(by: Int64(lines))
    }

    private func fail(_ error: AuditLogError) {
        parts.metrics.writeErrors.increment()
        retryAt = monotonicNanoseconds() + Self.retryNanoseconds
        let isNew = parts.shared.withLock { state -> Bool in
            defer { state.lastError = error.message }
            return state.lastError != error.message
        }
        if isNew {
            parts.logger.error(
                "audit log write failed; records stay queued and are retried every second",
                metadata: ["path": "\(error.path)", "error": "\(error.message)", "queued": "\(backlog.count)"])
        }
    }

    private func recovered() {
        guard retryAt != nil else { return }
        retryAt = nil
        failedShutdownAttempts = 0
        let previous = parts.shared.withLock { state -> String? in
            defer { state.lastError = nil }
            return state.lastError
        }
        if let previous {
            parts.logger.notice("audit log writable again", metadata: ["path": "\(path)", "previousError": "\(previous)"])
        }
    }

    // MARK: Shutdown

    /// The thread's last step, once the pool has drained: give up what could not be written
    /// (counted and logged as lost), close the file, and mark the writer stopped.
    func finish() {
        let lost = backlog.count
        let lastError = parts.shared.withLock { state -> String? in
            state.dropped += lost
            state.lost += lost
            state.queuedBytes = 0
            state.stopped = true
            return state.lastError
        }
        closeFile()
        if lost > 0 {
            parts.metrics.dropped.increment(by: Int64(lost))
            parts.logger.critical(
                "audit log shut down with records it could not write: they are lost",
                metadata: ["path": "\(path)", "lost": "\(lost)", "error": "\(lastError ?? "unknown")"])
        } else {
            parts.logger.info("audit log closed", metadata: ["path": "\(path)"])
        }
        backlog.removeAll()
        for flusher in flushers { flusher.resume(returning: lost == 0) }
        flushers.removeAll()
    }
}
