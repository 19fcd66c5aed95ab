import Foundation
import PassgateTestSupport
import Testing

/// Runs the `openssl` command-line tool (an implementation independent of our Swift wrapper,
/// though it shares libcrypto) inside one scratch directory, for cross-checks.
///
/// Use it through `OpenSSLCLI.withScratchDirectory { cli in … }`: every test gets its own
/// directory under the system temporary directory, removed when the closure returns.
/// File arguments are relative to that directory.
struct OpenSSLCLI {
    /// A non-zero exit that the caller did not expect: the thrown error fails the test and
    /// carries the command line and openssl's stderr.
    struct Failure: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let stderr: String

        var description: String {
            "`openssl \(arguments.joined(separator: " "))` exited with status \(status): \(stderr)"
        }
    }

    /// The result of a command whose exit status the caller inspects itself.
    struct Outcome {
        let status: Int32
        let stdout: [UInt8]
        let stderr: String

        var succeeded: Bool { status == 0 }
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    struct NotFound: Error, CustomStringConvertible {
        var description: String { "the openssl command-line tool is not on PATH (apt-get install openssl)" }
    }

    let directory: URL

    /// `openssl` from `PATH`, else `/usr/bin/openssl`.
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/openssl" } + ["/usr/bin/openssl"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }()

    /// Runs `body` with a fresh scratch directory, removed afterwards whatever happens.
    static func withScratchDirectory<T>(_ body: (OpenSSLCLI) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("passgate-openssl-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(OpenSSLCLI(directory: directory))
    }

    func url(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: url(name))
    }

    func write(_ name: String, _ text: String) throws {
        try write(name, Array(text.utf8))
    }

    func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name)))
    }

    func readText(_ name: String) throws -> String {
        String(decoding: try read(name), as: UTF8.self)
    }

    /// Runs `openssl arguments…` and returns its stdout; a non-zero exit throws `Failure`
    /// (which fails the calling test with openssl's stderr).
    @discardableResult
    func run(_ arguments: [String]) async throws -> [UInt8] {
        let outcome = try await runAllowingFailure(arguments)
        guard outcome.succeeded else {
            throw Failure(arguments: arguments, status: outcome.status, stderr: outcome.stderr)
        }
        return outcome.stdout
    }

    /// Runs `openssl arguments…` and reports the exit status instead of throwing on failure
    /// (for checks where openssl is expected to refuse, such as a tampered signature).
    ///
    /// The child is waited for on a thread of its own (`Subprocess.run`), not on the cooperative
    /// pool: these suites run a few hundred openssl processes, and while a pool thread (one of two
    /// here) waits for one, every other test's task waits too.
    func runAllowingFailure(_ arguments: [String]) async throws -> Outcome {
        guard let executable = Self.executable else { throw NotFound() }
        let result = try await Subprocess.run(executable.path, arguments, currentDirectory: directory.path)
        return Outcome(
            status: result.status,
            stdout: result.stdout,
            stderr: result.stderrText
        )
    }
}
