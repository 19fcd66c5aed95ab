import PassgateCore
import Synchronization

/// Keeps every line in memory: for tests that check what was (not) logged.
public final class MemoryLogSink: LogSink {
    // `Mutex` guards the shared line list.
    private let lines = Mutex<[String]>([])

    public init() {}

    public func write(_ line: String) { lines.withLock { $0.append(line) } }

    /// Everything written so far.
    public var contents: [String] { lines.withLock { $0 } }
}
