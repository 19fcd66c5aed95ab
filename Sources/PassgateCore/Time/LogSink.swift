/// Where finished log lines go: standard output in production (`StandardOutputSink`), memory
/// in tests.
public protocol LogSink: Sendable {
    /// Writes `line` (no newline) now or soon, after every line written before it.
    func write(_ line: String)

    /// ``write(_:)`` for a line that should not wait for others to share its write (warnings and
    /// worse). The default is ``write(_:)``.
    func writeUrgently(_ line: String)

    /// Calls `count` with the number of lines the sink drops, from now on (and once with those
    /// dropped before, if any). The default: a sink that never drops lines ignores it.
    func reportDrops(to count: @escaping @Sendable (Int) -> Void)
}

extension LogSink {
    public func writeUrgently(_ line: String) { write(line) }
    public func reportDrops(to count: @escaping @Sendable (Int) -> Void) {}
}
