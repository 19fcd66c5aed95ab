import Foundation
import Testing

/// Runs a program to completion and captures what it printed.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum ProcessRunner {
    /// The `passgate` binary SwiftPM built next to this test bundle.
    static var passgate: String {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = exe.deletingLastPathComponent()
        // On Linux the test bundle is `<products>/passgatePackageTests.xctest`; on macOS it is a bundle directory.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("passgate").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("passgate").path
    }

    /// Runs blocking work on its own thread: the cooperative pool has one thread per core (two
    /// here), and a test blocked in `waitUntilExit` there would stall every other test.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) async throws -> ProcessResult {
        try await offPool { try runBlocking(executable, arguments, environment: environment, stdin: stdin) }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String], stdin: Data?) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read before waiting so a chatty child cannot fill the pipe and block.
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// `passgate ARGS…`
    static func passgate(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await run(passgate, arguments, environment: environment)
    }

    /// `openssl ARGS…`, failing the test if it fails.
    @discardableResult
    static func openssl(_ arguments: [String], stdin: Data? = nil) async throws -> String {
        let result = try await run("/usr/bin/openssl", arguments, stdin: stdin)
        try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        return result.stdout
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
