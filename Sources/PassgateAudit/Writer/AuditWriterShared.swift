import Synchronization

/// What the recording threads and the writer thread share: the counters behind
/// `AuditWriterStatus` and the byte budget. The lines themselves travel through the writer's
/// `BlockingWorkerPool` queue as `AuditJob`s.
final class AuditWriterShared: Sendable {
    struct State {
        /// Bytes accepted and not yet appended (queued plus the writer's backlog), against `maxBufferedBytes`.
        var queuedBytes = 0
        /// The writer has finished: set by its last step, before its thread exits.
        var stopped = false
        var lastError: String?
        /// Records taken into memory by `record`.
        var accepted = 0
        /// Records appended to a file.
        var written = 0
        /// Records refused (buffer full, or after shutdown) or given up at shutdown.
        var dropped = 0
        /// Accepted records given up at shutdown (part of `dropped`).
        var lost = 0
        /// Whether the last `record` was refused, so only the start of a refusal run is logged.
        var refusing = false

        /// What `flush` answers once the writer has stopped: whether everything accepted was written.
        var stoppedClean: Bool { accepted == written + lost && lost == 0 }
    }

    private let state = Mutex(State())

    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0) }
    }
}

/// What `record` and `flush` hand the writer thread.
enum AuditJob: Sendable {
    /// One encoded record, newline included.
    case line([UInt8])
    /// Answer once every line queued before it is written and fsynced: `true`, or `false` when
    /// the disk refused. `nil` answers a flush the writer will never run (it has stopped).
    case flush(CheckedContinuation<Bool?, Never>)
}
