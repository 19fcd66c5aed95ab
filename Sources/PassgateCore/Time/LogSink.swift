/// Where finished log lines go: standard output in production (`StandardOutputSink`), memory
/// in tests.
public protocol LogSink: Sendable {
    /// Writes `line` (no newline) now or soon, after every line written before it.
    func write(_ line: String)

    /// ``write(_:)`` for a line that should not wait for others to share its write (warnings and
    /// worse). The default is ``write(_:)``.
    func writeUrgently(_ line: String)
}

extension LogSink {
    public func writeUrgently(_ line: String) { write(line) }
}
