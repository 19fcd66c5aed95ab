import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a program printed, and how it exited.
public struct SubprocessResult: Sendable {
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: [UInt8]

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

extension Subprocess {
    /// Runs a program to completion on a thread of its own: the cooperative pool has one thread
    /// per core (two here), and a test blocked there in `waitpid` would stall every other test.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: [UInt8] = [],
        currentDirectory: String? = nil
    ) async throws -> SubprocessResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    try runBlocking(executable, arguments, environment: environment, stdin: stdin, currentDirectory: currentDirectory)
                })
            }.start()
        }
    }

    /// Runs a program to completion, feeding `stdin` and capturing both outputs (read together,
    /// so a chatty child can never block on a full pipe).
    public static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: [UInt8] = [],
        currentDirectory: String? = nil
    ) throws -> SubprocessResult {
        let input = try pipePair(), output = try pipePair(), errors = try pipePair()
        let child: Child
        do {
            child = try spawn(executable, arguments, environment: environment, currentDirectory: currentDirectory) { actions in
                posix_spawn_file_actions_adddup2(&actions, input.read, 0)
                posix_spawn_file_actions_adddup2(&actions, output.write, 1)
                posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
            }
        } catch {
            [input.read, input.write, output.read, output.write, errors.read, errors.write].forEach { close($0) }
            throw error
        }
        close(input.read)
        close(output.write)
        close(errors.write)
        _ = fcntl(input.write, F_SETFL, fcntl(input.write, F_GETFL) | O_NONBLOCK)
        var result = SubprocessResult(status: 0, stdout: [], stderr: [])
        pump(stdin: stdin, into: input.write, stdout: output.read, stderr: errors.read, result: &result)
        result.status = wait(child.pid)
        return result
    }

    private static func pump(stdin: [UInt8], into writer: Int32, stdout: Int32, stderr: Int32, result: inout SubprocessResult) {
        var writer: Int32? = writer, stdout: Int32? = stdout, stderr: Int32? = stderr
        var written = 0
        var chunk = [UInt8](repeating: 0, count: 16_384)
        if stdin.isEmpty, let fd = writer { close(fd); writer = nil }
        while writer != nil || stdout != nil || stderr != nil {
            var fds = [writer, stdout, stderr].map { fd -> pollfd in
                pollfd(fd: fd ?? -1, events: fd == writer ? Int16(POLLOUT) : Int16(POLLIN), revents: 0)
            }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { break }
            if let fd = writer, fds[0].revents != 0 {
                let n = stdin[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n > 0 { written += n }
                if n < 0 && errno != EAGAIN || written == stdin.count { close(fd); writer = nil }
            }
            for (index, keyPath) in [(1, \SubprocessResult.stdout), (2, \SubprocessResult.stderr)] {
                guard let fd = index == 1 ? stdout : stderr, fds[index].revents != 0 else { continue }
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    result[keyPath: keyPath] += chunk.prefix(n)
                } else if n == 0 || errno != EINTR {
                    close(fd)
                    if index == 1 { stdout = nil } else { stderr = nil }
                }
            }
        }
    }

    private static func pipePair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure("pipe failed: errno \(errno)") }
        // Only our own posix_spawn children (which close everything from 3 up) can inherit these.
        fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }
}
