import DedicatedThreads
import PassgateCore
import Synchronization

/// The `pg-log` thread's work, as the one `BlockingWorker` of ``StandardOutputSink``'s pool: each
/// wake-up takes every queued job, then one pass writes the lines taken with one `write` (more only
/// when the descriptor takes part of them), with the drop reports in their places, and answers
/// the flushes.
struct OutputWriterLoop: BlockingWorker {
    /// Above this the batch buffer is freed after a pass rather than kept for the next one.
    static let keptCapacity = 256 << 10

    let descriptor: Int32
    let counts: OutputCounts
    let dropNote: @Sendable (Int) -> String
    /// Lines taken and not yet written, newline-terminated, oldest first.
    private var batch: [UInt8] = []
    private var flushers: [CheckedContinuation<Void, Never>] = []
    /// Bytes of the batch that callers counted as queued (the drop reports are not).
    private var queuedInBatch = 0

    init(descriptor: Int32, counts: OutputCounts, dropNote: @escaping @Sendable (Int) -> String) {
        self.descriptor = descriptor
        self.counts = counts
        self.dropNote = dropNote
        batch.reserveCapacity(16 << 10)
    }

    mutating func perform(_ job: OutputJob) {
        switch job {
        case .line(let bytes):
            batch.append(contentsOf: bytes)
            queuedInBatch += bytes.count
        case .flush(let continuation): flushers.append(continuation)
        case .dropReport:
            // Lines dropped after this job was queued are counted in this report as well.
            batch.append(contentsOf: dropNote(counts.dropped.exchange(0, ordering: .relaxed)).utf8)
            batch.append(0x0A)
        }
    }

    /// Writes the batch; a descriptor that refuses (closed, `EPIPE`) loses it, as a direct write
    /// would.
    mutating func idle(draining: Bool) -> Bool {
        if !batch.isEmpty {
            _ = DescriptorOutput.writeAll(batch, to: descriptor)
            counts.queuedBytes.subtract(queuedInBatch, ordering: .relaxed)
            queuedInBatch = 0
            if batch.capacity > Self.keptCapacity {
                batch = []
            } else {
                batch.removeAll(keepingCapacity: true)
            }
        }
        for flusher in flushers { flusher.resume() }
        flushers.removeAll()
        return true
    }
}
