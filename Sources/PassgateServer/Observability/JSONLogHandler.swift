import Foundation
import Logging
import Synchronization

/// Where finished log lines go: stdout in production, memory in tests.
public protocol LogSink: Sendable {
    func write(_ line: String)
}

/// Standard output, one `write(2)` per line so lines from many threads never interleave.
public struct StandardOutputSink: LogSink {
    public init() {}

    public func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// Keeps every line in memory: for tests that check what was (not) logged.
public final class MemoryLogSink: LogSink {
    // `Mutex` guards the shared line list.
    private let lines = Mutex<[String]>([])

    public init() {}

    public func write(_ line: String) { lines.withLock { $0.append(line) } }

    /// Everything written so far.
    public var contents: [String] { lines.withLock { $0 } }
}

/// A swift-log handler writing one JSON object per line: `ts`, `level`, `logger`, `msg`, then the
/// metadata keys. `text` format writes `ts level logger: msg key=value…` for humans.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String
    let sink: any LogSink
    let json: Bool

    public init(label: String, level: Logger.Level, sink: any LogSink, json: Bool = true) {
        self.label = label
        self.logLevel = level
        self.sink = sink
        self.json = json
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let timestamp = LogTimestamp.now()
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        guard json else {
            let pairs = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            sink.write("\(timestamp) \(event.level) \(label): \(event.message)\(pairs.isEmpty ? "" : " " + pairs)")
            return
        }
        var line = JSONLogLine()
        line.add("ts", timestamp)
        line.add("level", event.level.rawValue)
        line.add("logger", label)
        line.add("msg", event.message.description)
        for key in merged.keys.sorted() where !Self.reservedKeys.contains(key) {
            line.add(key, merged[key]!)
        }
        sink.write(line.finish())
    }

    /// The keys every line starts with; metadata cannot overwrite them.
    private static let reservedKeys: Set<String> = ["ts", "level", "logger", "msg"]
}
