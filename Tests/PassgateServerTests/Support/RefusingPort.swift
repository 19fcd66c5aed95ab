import Foundation
import PassgateTestSupport
import Synchronization

/// A loopback port that refuses connections: bound but never listening, and held until
/// `release()` (or deinit) so no parallel test's server can take it meanwhile.
final class RefusingPort: Sendable {
    let port: Int
    // Closed exactly once: a second close would hit whatever socket or pipe reused the number.
    private let descriptor: Mutex<Int32?>

    /// The port comes from `TestPorts` (below the ephemeral range), so after `release()` no other
    /// test's connection or `bind(0)` can take it before the test starts its server there.
    init() throws {
        for _ in 0..<10 {
            let candidate = try TestPorts.reserve()
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EMFILE) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(candidate).bigEndian)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 {
                descriptor = Mutex(fd)
                port = candidate
                return
            }
            close(fd)
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// Frees the port (for a test that then starts a server on it).
    func release() {
        if let fd = descriptor.withLock({ fd in defer { fd = nil }; return fd }) { close(fd) }
    }

    deinit { release() }
}
