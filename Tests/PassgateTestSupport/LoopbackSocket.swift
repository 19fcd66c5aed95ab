import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection to a loopback port, for tests that must control the bytes on the wire
/// (pipelining, half-written requests, malformed HTTP, a server closing the connection) where an
/// HTTP client library would hide them. Reads wait by polling with `Task.sleep`, so a test waiting
/// for a server never holds one of the few threads the server's own tasks may need; every read
/// gives up after the timeout.
public final class LoopbackSocket {
    private let fd: Int32
    private let timeout: Duration
    private var pending: [UInt8] = []
    /// What one read fills: allocated once per socket, not once per read.
    private var chunk = [UInt8](repeating: 0, count: 262_144)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public init(port: Int, timeoutSeconds: Int = 5) throws {
        // Writes block (the test's requests are small); reads poll (`fill`).
        fd = try Self.connectedDescriptor(port: port, sendTimeoutSeconds: timeoutSeconds)
        timeout = .seconds(timeoutSeconds)
    }

    /// A descriptor connected to `127.0.0.1:port`, with the timeouts given (seconds) on blocking
    /// sends and receives; the caller closes it.
    static func connectedDescriptor(port: Int, sendTimeoutSeconds: Int, receiveTimeoutSeconds: Int? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket() failed: errno \(errno)") }
        var sendTimeout = timeval(tv_sec: sendTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        if let receiveTimeoutSeconds {
            var receiveTimeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure("connect to 127.0.0.1:\(port) failed: \(String(cString: strerror(code)))")
        }
        return fd
    }

    deinit { close(fd) }

    /// Writes all of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure("write failed: errno \(errno)") }
            sent += n
        }
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Closes the sending side only (TCP half-close): the peer reads end of file, and can still answer.
    public func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Makes the close (at `deinit`) a reset (RST) instead of an orderly end of stream: the peer's
    /// next read or write fails, as when a client process dies or a load balancer drops it.
    public func resetOnClose() {
        var value = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }

    /// Exactly `count` bytes; throws on end of file or timeout before them.
    public func read(count: Int) async throws -> [UInt8] {
        while pending.count < count {
            guard try await fill() else { throw Failure("connection closed after \(pending.count) of \(count) bytes") }
        }
        defer { pending.removeFirst(count) }
        return Array(pending.prefix(count))
    }

    /// The bytes up to and including the first `delimiter`; throws on end of file or timeout before it.
    public func read(through delimiter: [UInt8]) async throws -> [UInt8] {
        var searched = 0
        while true {
            if pending.count >= delimiter.count {
                for start in searched...(pending.count - delimiter.count) where pending[start..<(start + delimiter.count)].elementsEqual(delimiter) {
                    return try await read(count: start + delimiter.count)
                }
                searched = pending.count - delimiter.count + 1
            }
            guard try await fill() else { throw Failure("connection closed before the delimiter (\(pending.count) bytes read)") }
        }
    }

    /// Whether the peer has closed the connection with nothing more to read (waits up to the timeout).
    public func readsEndOfFile() async throws -> Bool {
        guard pending.isEmpty else { return false }
        return try await !fill()
    }

    /// Reads what has arrived, waiting for something up to the timeout; false at end of file.
    /// Yields after each read: a test reading a stream that keeps arriving would otherwise hold
    /// its thread of the test process's small cooperative pool for as long as the bytes flow.
    private func fill() async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                pending += chunk.prefix(n)
                await Task.yield()
                return true
            }
            if n == 0 || (n < 0 && errno == ECONNRESET) { return false }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw Failure("read failed: \(String(cString: strerror(errno)))")
            }
            guard ContinuousClock.now < deadline else { throw Failure("nothing to read within \(timeout)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
