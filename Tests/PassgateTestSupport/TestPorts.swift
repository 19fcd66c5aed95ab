import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loopback ports for test servers that must keep their port across a restart.
///
/// They come from below the kernel's ephemeral range (32768-60999 on Linux), which is where every
/// `bind(port: 0)` and outgoing connection draws from, and a process-wide counter never hands one
/// out twice. A slice per process id keeps two test processes on one machine apart.
public enum TestPorts {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var next = 0  // guarded by `lock`
    private static let sliceSize = 160
    private static var sliceBase: Int { 20_000 + Int(getpid() % 64) * sliceSize }

    /// A port nothing on this machine listens on right now, and that this process has not handed
    /// out before.
    public static func reserve() throws -> Int {
        for _ in 0..<sliceSize {
            let port = lock.withLock {
                defer { next += 1 }
                return sliceBase + next % sliceSize
            }
            if isFree(port) { return port }
        }
        throw RedisServerProcess.Failure("no free loopback port left in \(sliceBase)..<\(sliceBase + sliceSize)")
    }

    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
