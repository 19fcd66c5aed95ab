import Foundation

/// How a fuzz target reports a broken invariant: a message on stderr, then `abort()`. libFuzzer
/// treats the signal as a crash, saves the input as `crash-<sha1>` and exits non-zero, which is
/// all Fuzz/run needs. `fatalError` would do too, but the marker line lets the script and a
/// human tell an invariant from a real memory error in the log.
public enum Invariant {
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        FileHandle.standardError.write(Data("==PASSGATE-FUZZ== invariant violated (\(file):\(line)): \(message)\n".utf8))
        abort()
    }

    public static func check(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        if !condition { fail(message(), file: file, line: line) }
    }
}

/// An on/off switch from the environment: `0`, `false`, `no` or `off` (any case) turn it off,
/// any other value turns it on, unset means `default`. Read once per process.
public func fuzzSwitch(_ name: String, default: Bool) -> Bool {
    guard let value = ProcessInfo.processInfo.environment[name] else { return `default` }
    return !["0", "false", "no", "off"].contains(value.lowercased())
}

/// The input as an array, the way the parsers receive request and reply bodies.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
