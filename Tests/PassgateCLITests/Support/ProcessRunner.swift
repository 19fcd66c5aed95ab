import Foundation
import PassgateTestSupport
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

    /// Runs a program to completion, off the cooperative pool (see `Subprocess`).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) async throws -> ProcessResult {
        let result = try await Subprocess.run(executable, arguments, environment: environment, stdin: stdin.map { Array($0) } ?? [])
        return ProcessResult(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
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
