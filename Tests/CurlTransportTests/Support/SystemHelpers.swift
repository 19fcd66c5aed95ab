import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback listener whose accept queue is full: `listen(fd, 0)` plus connections nobody
/// accepts. Linux then drops further SYNs, so a new connect neither succeeds nor is refused: a
/// genuine TCP connect timeout, produced without leaving the machine.
final class FullBacklogListener {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        descriptors.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(listener, raw, length) == 0, listen(listener, 0) == 0,
                    getsockname(listener, raw, &length) == 0
                else { throw POSIXError(.EADDRINUSE) }
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the queue: the kernel completes these handshakes itself, then stops answering SYNs.
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            descriptors.append(client)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        usleep(100_000)
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }
}

enum ProcessInfoHelpers {
    /// Names (`comm`) of every thread of this process, from /proc/self/task.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Raises the open-file limit to the hard limit; returns the new soft limit.
    @discardableResult
    static func raiseFileLimit() -> UInt64 {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
        _ = getrlimit(resource, &limit)
        return UInt64(limit.rlim_cur)
    }

    /// A loopback port with nothing listening on it for the rest of the test run: the socket stays
    /// bound, never listening, so connections to it are refused. Closing it right away (as this
    /// once did) let another test's server take the port with `bind(0)` and answer a request that
    /// was meant to be refused (seen as `MetricsTests` counting a sixth completed transfer).
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(fd, raw, length) == 0, getsockname(fd, raw, &length) == 0 else {
                    close(fd)
                    throw POSIXError(.EADDRINUSE)
                }
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
