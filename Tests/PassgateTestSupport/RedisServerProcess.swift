import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway `redis-server` on a loopback port of its own (no persistence), so every test can
/// run in parallel with the others. Use it through ``with(_:)``, which stops it afterwards.
///
/// Ports come from ``TestPorts`` (below the kernel's ephemeral range, never handed out twice in
/// one test process): a port taken from the ephemeral range can be handed to another test the
/// moment it is closed, and a store reconnecting after ``stop()`` would then write into that
/// test's Redis. The server is spawned with `posix_spawn` and queried over a socket with
/// ``RedisWire`` - no `Foundation.Process`, whose concurrent launches crashed in corelibs.
public final class RedisServerProcess: @unchecked Sendable {
    // @unchecked: `pid` is only touched by the test that owns the server, one call at a time;
    // `deinit` is the sole other reader and runs after the last of them.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public static let serverPath = "/usr/bin/redis-server"

    /// The loopback port; stays the same across ``stop()``/``restart()``.
    public let port: Int
    private var pid: pid_t = 0

    public var url: String { "redis://127.0.0.1:\(port)" }
    public var isRunning: Bool { pid != 0 && Subprocess.Child(pid: pid).isRunning }
    public var processIdentifier: Int32 { pid }

    private init(port: Int) {
        self.port = port
    }

    deinit {
        if pid != 0 { Subprocess.Child(pid: pid).terminate(grace: 0) }
    }

    /// Starts a server, runs `body`, and stops the server whatever happens.
    public static func with<T>(_ body: (RedisServerProcess) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Starts a server on a port of its own. Waiting for it to answer happens on a thread of its
    /// own: dozens of tests doing that on the two-thread cooperative pool starved every other test.
    public static func start() async throws -> RedisServerProcess {
        try await offPool { try startBlocking() }
    }

    private static func startBlocking() throws -> RedisServerProcess {
        guard FileManager.default.isExecutableFile(atPath: serverPath) else {
            throw Failure("\(serverPath) is missing: these tests need a real Redis (apt-get install redis-server)")
        }
        var lastError: (any Error)?
        for _ in 0..<5 {
            let server = RedisServerProcess(port: try TestPorts.reserve())
            do {
                try server.launch()
                return server
            } catch {
                lastError = error
            }
        }
        throw lastError ?? Failure("redis-server did not start")
    }

    /// Starts the server again on the same port after ``stop()``.
    public func restart() async throws {
        try await Self.offPool { try self.restartBlocking() }
    }

    private func restartBlocking() throws {
        var lastError: (any Error)?
        for _ in 0..<20 {
            do {
                try launch()
                return
            } catch {
                lastError = error
                usleep(100_000)
            }
        }
        throw lastError ?? Failure("redis-server did not restart")
    }

    /// SIGTERM, then waits for the process to exit (SIGKILL after 5 s, so a test never hangs here).
    public func stop() async {
        await Self.offPool { self.stopBlocking() }
    }

    /// SIGKILL at once (for a `defer`, which cannot wait).
    public func kill() {
        guard pid != 0 else { return }
        Subprocess.Child(pid: pid).terminate(grace: 0)
        pid = 0
    }

    private func stopBlocking() {
        guard pid != 0 else { return }
        Subprocess.Child(pid: pid).terminate(grace: 5)
        pid = 0
    }

    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private static func offPool(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            Thread {
                work()
                continuation.resume()
            }.start()
        }
    }

    /// Freezes (`SIGSTOP`) or thaws (`SIGCONT`) the server: connections stay open, nothing answers.
    public func freeze() { if pid != 0 { Subprocess.Child(pid: pid).send(SIGSTOP) } }
    public func thaw() { if pid != 0 { Subprocess.Child(pid: pid).send(SIGCONT) } }

    /// Sends one command (`-n DB` first selects a database) and returns the reply's bytes: a bulk
    /// string's content, a status line, or an integer in decimal. A Redis error reply throws.
    public func cli(_ arguments: String...) throws -> [UInt8] {
        try command(arguments)
    }

    /// `cli` as trimmed text.
    public func cliText(_ arguments: String...) throws -> String {
        String(decoding: try command(arguments), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func command(_ arguments: [String]) throws -> [UInt8] {
        var arguments = arguments
        var database: String?
        if arguments.count >= 2, arguments[0] == "-n" {
            database = arguments[1]
            arguments.removeFirst(2)
        }
        let wire = try RedisWire(port: port)
        if let database { _ = try wire.send(["SELECT", database]) }
        return try wire.send(arguments)
    }

    // MARK: - Internals

    private func launch() throws {
        let child = try Subprocess.launch(Self.serverPath, [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--daemonize", "no", "--loglevel", "warning",
        ])
        pid = child.pid
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard child.isRunning else {
                pid = 0
                throw Failure("redis-server exited at start on port \(port)")
            }
            // The answer must come from our own process, not from a server another run left behind.
            if let info = try? RedisWire(port: port).send(["INFO", "server"]) {
                guard String(decoding: info, as: UTF8.self).contains("process_id:\(child.pid)\r") else {
                    stopBlocking()
                    throw Failure("port \(port) is already served by another redis-server")
                }
                return
            }
            usleep(20_000)
        }
        stopBlocking()
        throw Failure("redis-server on port \(port) did not answer within 10 s")
    }
}
