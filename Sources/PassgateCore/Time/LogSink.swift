/// Where finished log lines go: standard output in production (`StandardOutputSink`), memory
/// in tests.
public protocol LogSink: Sendable {
    func write(_ line: String)
}
