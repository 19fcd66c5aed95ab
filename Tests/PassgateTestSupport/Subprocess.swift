import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs helper programs (`openssl`, `python3`, `redis-server`, the `passgate` binary) from tests
/// with `posix_spawn`, never `Foundation.Process`.
///
/// corelibs `Process.run()` lists `/proc/self/fd` to close inherited descriptors and overran its
/// buffer when another test opened sockets meanwhile (a load test with 1,000 connections): the
/// whole test process crashed in `memcpy`. `posix_spawn` with `closefrom` has no such window.
/// Every child also gets an empty signal mask and default dispositions: Swift's pool threads
/// block SIGTERM, and a child inheriting that mask would ignore the SIGTERM ``Child/terminate(grace:)`` sends.
public enum Subprocess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// A running child; ``terminate(grace:)`` stops and reaps it.
    public struct Child: Sendable {
        public let pid: pid_t

        /// Whether it has not exited yet (reaps it when it has).
        public var isRunning: Bool {
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == 0
        }

        /// Sends `signal` (e.g. SIGTERM to ask for a graceful shutdown).
        public func send(_ signal: Int32) { kill(pid, signal) }

        /// Waits, off the cooperative pool, until it exits; returns its status (128 + signal when
        /// a signal ended it). Call it once, and not after ``isRunning`` reported the exit.
        public func exitStatus() async -> Int32 {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: Subprocess.wait(pid)) }.start()
            }
        }

        /// SIGTERM (and SIGCONT, in case it is frozen), SIGKILL after `grace` seconds, then reaps it.
        public func terminate(grace: Double = 5) {
            guard isRunning else { return }
            kill(pid, grace > 0 ? SIGTERM : SIGKILL)
            kill(pid, SIGCONT)
            let deadline = Date().addingTimeInterval(grace)
            while Date() < deadline {
                if !isRunning { return }
                usleep(10_000)
            }
            kill(pid, SIGKILL)
            _ = Subprocess.wait(pid)
        }
    }

    /// Starts `executable` (a path, or a name looked up in `PATH`) with standard input from
    /// /dev/null and its output appended to the given files (or discarded).
    public static func launch(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        stdoutPath: String? = nil, stderrPath: String? = nil
    ) throws -> Child {
        try spawn(executable, arguments, environment: environment) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
    }

    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String? = nil,
        redirect: (inout posix_spawn_file_actions_t) -> Void
    ) throws -> Child {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        redirect(&actions)
        _ = GNUSpawnActions.closeFrom?(&actions, 3)
        if let currentDirectory {
            guard let chdir = GNUSpawnActions.changeDirectory else { throw Failure("this libc cannot set a child's working directory") }
            _ = chdir(&actions, currentDirectory)
        }

        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = executable.contains("/")
            ? posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            : posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failure("cannot start \(executable): \(String(cString: strerror(status)))") }
        return Child(pid: pid)
    }

    /// Waits for `pid` and returns its exit status (128 + signal number when a signal ended it).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// glibc's spawn extensions (2.29+, 2.34+), which Swift does not import without `_GNU_SOURCE`.
private enum GNUSpawnActions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// Closes every descriptor from N up in the child: nothing of the test process leaks into it.
    static let closeFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    static let changeDirectory: ChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<T>(_ name: String) -> T? {
        // A nil handle is RTLD_DEFAULT: search every object already loaded (libc among them).
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}
