import PassgateCore
import CoreMetrics
import DedicatedThreads
import Logging
import ServiceLifecycle

/// The audit log: an `AuditSink` that appends each record as one JSON line to a file, and a
/// swift-service-lifecycle `Service` that flushes and fsyncs everything on graceful shutdown.
///
/// `record` only encodes the line and queues it (two short mutex holds, no I/O). The writer's
/// `BlockingWorkerPool` has one dedicated OS thread (`pg-audit`), whose `AuditWriterLoop` appends
/// queued lines (`O_APPEND`) as they come (under load, in batches at most `writeDelayMs` apart), fsyncs every `fsyncIntervalMs` (after every write when
/// 0), and rotates by size: when the next line would take the file past `maxFileBytes` it is
/// fsynced and renamed to a timestamped sibling (`audit-20261121T101500Z-0001.jsonl`, never
/// overwriting) and a new file is started. Directories are created 0750, files 0640.
///
/// Retention, on the same thread (at start-up, after each rotation, and hourly while `maxAgeDays`
/// is set): rotated files beyond the newest `maxFiles`, and those rotated more than `maxAgeDays`
/// days ago, are deleted oldest first, counted in `passgate_audit_files_deleted_total`. Only
/// names the writer makes for this path are touched. A deletion that fails is logged and counted
/// in `passgate_audit_retention_errors_total`; writing goes on.
///
/// Write failures (disk full, directory removed, permissions) never reach the caller: they are
/// logged when they start and end, counted in `passgate_audit_write_errors_total`, shown by
/// `status`, and the lines stay queued and are retried every second, up to
/// `maxBufferedBytes`; past that, new records are refused and counted in
/// `passgate_audit_records_dropped_total`.
///
/// In a `ServiceGroup`, list the writer before the services that record into it: the group shuts
/// services down in reverse order, so the writer drains last.
public final class AuditLogWriter: AuditSink, Service {
    /// Where and how the log is written.
    public struct Configuration: Sendable, Equatable {
        /// The current file, e.g. `/var/lib/passgate/audit/audit.jsonl`; rotated files go beside it.
        public var path: String
        /// A file is rotated before a line would take it past this size (at least 4096).
        public var maxFileBytes: Int
        /// How often written lines are fsynced; 0 fsyncs after every write.
        public var fsyncIntervalMs: Int
        /// The longest a line waits in memory for others to share its `write`: after a write the
        /// thread sleeps at most this long, and lines recorded meanwhile do not wake it. A line
        /// recorded while the thread is idle is written at once. 0 wakes the thread for every line.
        public var writeDelayMs: Int
        /// Encoded lines kept in memory while the disk cannot take them; more are refused.
        public var maxBufferedBytes: Int
        /// Rotated files kept besides the current one (the oldest beyond are deleted); 0 keeps
        /// every one. Unless deletions fail, at most `(maxFiles + 1) × maxFileBytes` is on disk.
        public var maxFiles: Int
        /// Rotated files whose name's rotation time is more than this many days ago are deleted;
        /// 0 is no age limit.
        public var maxAgeDays: Int

        public init(
            path: String, maxFileBytes: Int = 64 << 20, fsyncIntervalMs: Int = 1000, writeDelayMs: Int = 0, maxBufferedBytes: Int = 32 << 20,
            maxFiles: Int = 10, maxAgeDays: Int = 0
        ) {
            self.path = path
            self.maxFileBytes = maxFileBytes
            self.fsyncIntervalMs = fsyncIntervalMs
            self.writeDelayMs = writeDelayMs
            self.maxBufferedBytes = maxBufferedBytes
            self.maxFiles = maxFiles
            self.maxAgeDays = maxAgeDays
        }
    }

    public let configuration: Configuration
    let shared = AuditWriterShared()
    let logger: Logger
    let metrics: AuditMetrics
    /// One thread, taking every queued job at once so a pass writes them in as few `write`s as fit.
    let writer: BlockingWorkerPool<AuditWriterLoop>

    /// Creates the directory, opens (or creates) the file and starts the writer thread.
    ///
    /// - Throws: `AuditLogError` naming the path and the system's reason when the directory cannot
    ///   be created or the file cannot be opened for appending, or when the limits are out of range.
    /// `clock` names rotated files and judges their age (tests pass their own).
    public init(
        configuration: Configuration, logger: Logger, metricsFactory: any MetricsFactory = MetricsSystem.factory, clock: any PassgateClock = SystemClock()
    ) throws(AuditLogError) {
        guard configuration.maxFileBytes >= 4096 else {
            throw AuditLogError(path: configuration.path, message: "audit maxFileBytes must be at least 4096, got \(configuration.maxFileBytes)")
        }
        guard configuration.fsyncIntervalMs >= 0 else {
            throw AuditLogError(path: configuration.path, message: "audit fsyncIntervalMs must be 0 or more, got \(configuration.fsyncIntervalMs)")
        }
        guard configuration.writeDelayMs >= 0 else {
            throw AuditLogError(path: configuration.path, message: "audit writeDelayMs must be 0 or more, got \(configuration.writeDelayMs)")
        }
        guard configuration.maxFiles >= 0, configuration.maxAgeDays >= 0 else {
            throw AuditLogError(
                path: configuration.path,
                message: "audit maxFiles and maxAgeDays must be 0 (no limit) or more, got \(configuration.maxFiles) and \(configuration.maxAgeDays)")
        }
        self.configuration = configuration
        self.logger = logger
        self.metrics = AuditMetrics(factory: metricsFactory)
        let file = try AuditFile(path: configuration.path)
        let loop = AuditWriterLoop.Parts(shared: shared, configuration: configuration, logger: logger, metrics: metrics, clock: clock)
        do {
            writer = try BlockingWorkerPool(
                threads: 1, name: { _ in "pg-audit" }, maxJobsPerTake: .max,
                lingerAfterWork: .milliseconds(configuration.writeDelayMs),
                // Lines the pool refuses are counted by `record`, which sees `submit` fail; a
                // refused flush is answered from the final counts once the writer has stopped.
                reject: { job in if case .flush(let continuation) = job { continuation.resume(returning: nil) } },
                makeWorker: { _ in AuditWriterLoop(loop, file: file) })
        } catch {
            file.close()
            throw AuditLogError(path: configuration.path, message: "cannot start the audit writer thread (the system refused a new thread)")
        }
        logger.info("audit log open", metadata: [
            "path": "\(configuration.path)", "size": "\(file.size)", "maxFiles": "\(configuration.maxFiles)", "maxAgeDays": "\(configuration.maxAgeDays)",
        ])
    }

    /// `init(configuration:logger:metricsFactory:clock:)` with the `audit:` settings' values.
    public convenience init(
        path: String, maxFileBytes: Int, fsyncIntervalMs: Int, writeDelayMs: Int = 0, maxFiles: Int = 10, maxAgeDays: Int = 0, logger: Logger,
        metricsFactory: any MetricsFactory = MetricsSystem.factory, clock: any PassgateClock = SystemClock()
    ) throws(AuditLogError) {
        let configuration = Configuration(
            path: path, maxFileBytes: maxFileBytes, fsyncIntervalMs: fsyncIntervalMs, writeDelayMs: writeDelayMs, maxFiles: maxFiles,
            maxAgeDays: maxAgeDays)
        try self.init(configuration: configuration, logger: logger, metricsFactory: metricsFactory, clock: clock)
    }

    deinit {
        // Let the thread drain what is queued and exit; nobody can wait for it any more.
        writer.drain()
    }

    /// Queues `record` for the writer thread; returns at once.
    public func record(_ record: AuditRecord) {
        let line = record.jsonLine()
        var refusal = shared.withLock { state -> (logged: Bool, stopped: Bool)? in
            guard !state.stopped, state.queuedBytes + line.count <= configuration.maxBufferedBytes else {
                state.dropped += 1
                defer { state.refusing = true }
                if !state.stopped { state.lastError = "audit buffer full: records are being refused" }
                return (state.refusing, state.stopped)
            }
            state.refusing = false
            state.accepted += 1
            state.queuedBytes += line.count
            return nil
        }
        if refusal == nil {
            if writer.submit(.line(line), deferrable: true) { return }
            // The writer stopped between the two steps: the record is refused after all.
            refusal = shared.withLock { state in
                state.accepted -= 1
                state.queuedBytes = max(0, state.queuedBytes - line.count)
                state.dropped += 1
                defer { state.refusing = true }
                return (state.refusing, true)
            }
        }
        guard let refusal else { return }
        metrics.dropped.increment()
        guard !refusal.logged else { return }
        let reason = refusal.stopped
            ? "the audit log is already shut down (record calls must end before the writer stops)"
            : "more than \(configuration.maxBufferedBytes) bytes are waiting for the disk"
        logger.error("audit record refused: \(reason)", metadata: ["path": "\(configuration.path)", "msgid": "\(record.msgid)"])
    }

    /// Writes and fsyncs every record recorded before this call; `false` when the disk refused.
    @discardableResult
    public func flush() async -> Bool {
        if let flushed = await writer.perform({ AuditJob.flush($0) }) { return flushed }
        // The writer has stopped (or is taking its last step): answer from its final counts.
        await writer.waitUntilStopped()
        return shared.withLock { $0.stoppedClean }
    }

    /// Writes and fsyncs everything recorded so far, closes the file and stops the thread.
    /// Records that still cannot be written after a few retries are given up, logged and counted.
    /// Idempotent; later `record` calls are refused.
    public func shutdown() async {
        writer.drain()
        await writer.waitUntilStopped()
    }

    /// Runs until graceful shutdown (or cancellation), then `shutdown()`.
    public func run() async throws {
        _ = await ShutdownWait.untilShutdown()
        await shutdown()
    }

    /// What `/readyz` and operators want to know.
    public var status: AuditWriterStatus {
        shared.withLock { state in
            AuditWriterStatus(
                lastError: state.lastError, writtenRecords: state.written, bufferedRecords: state.accepted - state.written - state.lost,
                droppedRecords: state.dropped, isStopped: state.stopped
            )
        }
    }

    /// `false` while writes are failing or records are being refused.
    public var isHealthy: Bool { status.isHealthy }
}

/// A snapshot of the writer's health and counters.
public struct AuditWriterStatus: Sendable, Equatable {
    /// The last write, fsync or rotation failure (or buffer overflow), until a write succeeds again.
    public var lastError: String?
    /// Records appended to a file since start.
    public var writtenRecords: Int
    /// Records queued in memory, not yet in a file.
    public var bufferedRecords: Int
    /// Records refused or given up since start: lost from the audit log.
    public var droppedRecords: Int
    /// `shutdown()` has finished.
    public var isStopped: Bool

    public var isHealthy: Bool { lastError == nil }
}

/// The writer's swift-metrics instruments.
struct AuditMetrics: Sendable {
    /// Failed appends, fsyncs, rotations and opens (each retry counts).
    let writeErrors: Counter
    let written: Counter
    let dropped: Counter
    /// Rotated files deleted by retention (`maxFiles`, `maxAgeDays`).
    let filesDeleted: Counter
    /// Retention's failed directory listings and deletions (each attempt counts).
    let retentionErrors: Counter

    init(factory: any MetricsFactory) {
        writeErrors = Counter(label: "passgate_audit_write_errors_total", factory: factory)
        written = Counter(label: "passgate_audit_records_written_total", factory: factory)
        dropped = Counter(label: "passgate_audit_records_dropped_total", factory: factory)
        filesDeleted = Counter(label: "passgate_audit_files_deleted_total", factory: factory)
        retentionErrors = Counter(label: "passgate_audit_retention_errors_total", factory: factory)
    }
}
