import PassgateCore
import Foundation
import Logging
import Synchronization

/// A swift-log handler writing one JSON object per line: `ts`, `level`, `logger`, `msg`, then the
/// metadata keys. `text` format writes `ts level logger: msg key=value…` for humans (``TextLogLine``).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String
    let sink: any LogSink
    let json: Bool
    /// Where each line's `ts` comes from.
    let clock: any PassgateClock

    public init(label: String, level: Logger.Level, sink: any LogSink, json: Bool = true, clock: any PassgateClock = SystemClock()) {
        self.clock = clock
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
        var fields: [(key: String, value: Logger.Metadata.Value)] = []
        fields.reserveCapacity(metadata.count + (event.metadata?.count ?? 0))
        for (key, value) in event.metadata ?? [:] { fields.append((key, value)) }
        fields.sort { $0.key < $1.key }
        emit(level: event.level, message: event.message.description, fields: Self.merged(handler: metadata, sortedEvent: fields))
    }

    /// One line whose fields the caller has already put in key order: the access line, written
    /// on every request, skips building a `Logger.Metadata` dictionary only for this handler to
    /// take it apart and sort it again. The handler's own metadata is merged in as `log(event:)`
    /// merges it (the caller's value wins on a shared key). The level is checked here.
    func log(level: Logger.Level, message: String, sortedFields: [(key: String, value: Logger.Metadata.Value)]) {
        guard level >= logLevel else { return }
        emit(level: level, message: message, fields: Self.merged(handler: metadata, sortedEvent: sortedFields))
    }

    /// Writes one line: `fields` in the order given, after the four fixed keys. Warnings and
    /// worse go out at once; other lines may wait a few milliseconds to share a write.
    private func emit(level: Logger.Level, message: String, fields: [(key: String, value: Logger.Metadata.Value)]) {
        let line = Self.line(level: level, label: label, message: message, fields: fields, json: json, clock: clock)
        if level >= .warning {
            sink.writeUrgently(line)
        } else {
            sink.write(line)
        }
    }

    /// One line as this handler writes it, now: `fields` in the order given, after the four fixed
    /// keys (`ts`, `level`, `logger`, `msg`), as JSON or as `ts level logger: msg key=value…`.
    static func line(
        level: Logger.Level, label: String, message: String, fields: [(key: String, value: Logger.Metadata.Value)], json: Bool,
        clock: any PassgateClock = SystemClock()
    ) -> String {
        let timestamp = LogTimestamp.now(clock)
        guard json else {
            return TextLogLine.line(timestamp: timestamp, level: level, label: label, message: message, fields: fields)
        }
        var line = JSONLogLine()
        line.add("ts", timestamp)
        line.add("level", level.rawValue)
        line.add("logger", label)
        line.add("msg", message)
        for field in fields where !isReserved(field.key) {
            line.add(field.key, field.value)
        }
        return line.finish()
    }

    /// The handler's metadata and the event's fields (already in key order; the event's wins on a
    /// shared key), in key order. Kept as an array rather than merged into a dictionary: every
    /// request writes log lines, and merging would rehash every key of both. Without handler
    /// metadata (the usual case) the event's fields are returned as they are.
    static func merged(
        handler: Logger.Metadata, sortedEvent: [(key: String, value: Logger.Metadata.Value)]
    ) -> [(key: String, value: Logger.Metadata.Value)] {
        guard !handler.isEmpty else { return sortedEvent }
        var fields = sortedEvent
        for (key, value) in handler where !sortedEvent.contains(where: { $0.key == key }) { fields.append((key, value)) }
        fields.sort { $0.key < $1.key }
        return fields
    }

    /// The keys every line starts with; metadata cannot overwrite them.
    /// By length first: it runs for every field of every line, and most keys are ruled out
    /// without a string comparison.
    private static func isReserved(_ key: String) -> Bool {
        switch key.utf8.count {
        case 2: key == "ts"
        case 3: key == "msg"
        case 5: key == "level"
        case 6: key == "logger"
        default: false
        }
    }
}
