import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal, blocking RESP client for tests: one connection, one command at a time, so a test
/// can look at (or tamper with) what the store under test wrote, without spawning `redis-cli`.
final class RedisWire {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeoutSeconds: Int = 5) throws {
        fd = try LoopbackSocket.connectedDescriptor(port: port, sendTimeoutSeconds: timeoutSeconds, receiveTimeoutSeconds: timeoutSeconds)
    }

    deinit { close(fd) }

    /// Sends `arguments` as one command and returns the reply (see `RedisServerProcess.cli`).
    func send(_ arguments: [String]) throws -> [UInt8] {
        var request = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            let bytes = Array(argument.utf8)
            request += Array("$\(bytes.count)\r\n".utf8) + bytes + Array("\r\n".utf8)
        }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw RedisServerProcess.Failure("write to Redis failed: errno \(errno)") }
            sent += n
        }
        return try reply()
    }

    private func reply() throws -> [UInt8] {
        let line = try readLine()
        guard let kind = line.first else { throw RedisServerProcess.Failure("empty reply line from Redis") }
        let rest = Array(line.dropFirst())
        switch kind {
        case UInt8(ascii: "+"), UInt8(ascii: ":"):
            return rest
        case UInt8(ascii: "-"):
            throw RedisServerProcess.Failure("Redis error: \(String(decoding: rest, as: UTF8.self))")
        case UInt8(ascii: "$"):
            guard let length = Int(String(decoding: rest, as: UTF8.self)) else { throw RedisServerProcess.Failure("bad bulk length") }
            if length < 0 { return [] }
            let body = try read(count: length + 2)
            return Array(body.prefix(length))
        case UInt8(ascii: "*"):
            guard let count = Int(String(decoding: rest, as: UTF8.self)) else { throw RedisServerProcess.Failure("bad array length") }
            var joined: [UInt8] = []
            for index in 0..<max(count, 0) {
                if index > 0 { joined.append(UInt8(ascii: "\n")) }
                joined += try reply()
            }
            return joined
        default:
            throw RedisServerProcess.Failure("unexpected reply type \(Character(UnicodeScalar(kind))) from Redis")
        }
    }

    private func readLine() throws -> [UInt8] {
        while true {
            if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                let line = Array(buffer[..<end])
                buffer.removeFirst(end + 2)
                return line
            }
            try fill()
        }
    }

    private func read(count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw RedisServerProcess.Failure(n == 0 ? "Redis closed the connection" : "read from Redis failed: errno \(errno)") }
        buffer += chunk.prefix(n)
    }
}
