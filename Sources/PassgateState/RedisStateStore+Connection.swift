import CHiredis

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One hiredis connection, owned by exactly one worker thread for its whole life (never shared,
/// never touched from Swift's cooperative pool). Connects lazily; a context that reported an
/// error is freed, and the next command connects again.
final class RedisConnection {
    private let url: RedisURL
    private let credentials: RedisCredentials?
    private let timeout: timeval
    private var context: UnsafeMutablePointer<redisContext>?

    init(url: RedisURL, credentials: RedisCredentials?, timeoutMs: Int) {
        self.url = url
        self.credentials = credentials
        self.timeout = timeval(tv_sec: timeoutMs / 1000, tv_usec: .init((timeoutMs % 1000) * 1000))
    }

    deinit { close() }

    func close() {
        if let context { redisFree(context) }
        context = nil
    }

    /// Runs one command. A command that fails on a reused connection because the server had
    /// closed it (a Redis restart, an idle timeout) is sent once more on a fresh connection.
    ///
    /// That retry is safe for every command the store sends, because each gives the same result
    /// when the first attempt did reach Redis: GET and PING read; a repeated claim by the same
    /// owner finds its own claim and renews it (never "held by someone else"); a repeated renewal
    /// or release finds the same owner; a repeated settle finds its own outcome and returns it as
    /// the one already stored, which the caller compares with what it sent.
    func execute(_ arguments: [[UInt8]]) -> Result<RedisReply, StateStoreError> {
        let reused = context != nil
        switch attempt(arguments) {
        case .success(let reply):
            return .success(reply)
        case .failure(let failure) where reused && failure.staleConnection:
            return attempt(arguments).mapError(\.error)
        case .failure(let failure):
            return .failure(failure.error)
        }
    }

    // MARK: - Internals

    struct Failure: Error {
        let error: StateStoreError
        /// The peer had closed the connection before we used it (EOF, reset, broken pipe).
        let staleConnection: Bool
    }

    private func attempt(_ arguments: [[UInt8]]) -> Result<RedisReply, Failure> {
        let context: UnsafeMutablePointer<redisContext>
        switch connectIfNeeded() {
        case .success(let connected): context = connected
        case .failure(let failure): return .failure(failure)
        }
        guard let reply = Self.command(context, arguments) else {
            let failure = classify(context, doing: "command")
            close()
            return .failure(failure)
        }
        defer { freeReplyObject(reply) }
        return .success(RedisReply(copying: reply))
    }

    private func connectIfNeeded() -> Result<UnsafeMutablePointer<redisContext>, Failure> {
        if let context { return .success(context) }
        guard let created = redisConnectWithTimeout(url.host, Int32(url.port), timeout) else {
            return .failure(Failure(error: StateStoreError(.unavailable, "redis at \(url.endpoint): out of memory creating a connection"),
                                    staleConnection: false))
        }
        if created.pointee.err != 0 {
            let failure = classify(created, doing: "connect")
            redisFree(created)
            return .failure(Failure(error: failure.error, staleConnection: false))
        }
        guard redisSetTimeout(created, timeout) == REDIS_OK else {
            let failure = classify(created, doing: "set timeout")
            redisFree(created)
            return .failure(Failure(error: failure.error, staleConnection: false))
        }
        context = created
        if let credentials {
            switch attempt(credentials.authArguments) {
            case .success(.status):
                break
            case .success(let other):
                close()
                let code = if case .error(let message) = other { RedisReply.errorCode(message) } else { other.kindName }
                return .failure(Failure(
                    error: StateStoreError(.unavailable, "redis at \(url.endpoint) refused the credentials for user \(credentials.username ?? "default") (\(code)): check state.redisPassword and state.redisUsername"),
                    staleConnection: false))
            case .failure(let failure):
                return .failure(Failure(error: failure.error, staleConnection: false))
            }
        }
        if url.database != 0 {
            switch attempt([Array("SELECT".utf8), Array(String(url.database).utf8)]) {
            case .success(.status):
                break
            case .success(let other):
                close()
                let detail = if case .error(let message) = other { " (\(RedisReply.errorCode(message)))" } else { "" }
                return .failure(Failure(
                    error: StateStoreError(.unavailable, "redis at \(url.endpoint): cannot select database \(url.database)\(detail)"),
                    staleConnection: false))
            case .failure(let failure):
                return .failure(Failure(error: failure.error, staleConnection: false))
            }
        }
        return .success(created)
    }

    /// Builds hiredis's binary-safe `argv`/`argvlen` arrays and sends one command. `nil` means
    /// the context now carries an error (`err`/`errstr`) and must be freed.
    private static func command(_ context: UnsafeMutablePointer<redisContext>, _ arguments: [[UInt8]]) -> UnsafeMutablePointer<redisReply>? {
        // One buffer holds every argument back to back; `argv` points into it.
        let total = arguments.reduce(0) { $0 + $1.count }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(total, 1))
        defer { buffer.deallocate() }
        var argv: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        argv.reserveCapacity(arguments.count)
        lengths.reserveCapacity(arguments.count)
        var offset = 0
        for argument in arguments {
            argument.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress, bytes.count > 0 {
                    UnsafeMutableRawPointer(buffer + offset).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            argv.append(UnsafePointer(buffer + offset))
            lengths.append(argument.count)
            offset += argument.count
        }
        return argv.withUnsafeMutableBufferPointer { argvBuffer in
            lengths.withUnsafeBufferPointer { lengthBuffer in
                CHiredis_commandArgv(context, Int32(arguments.count), argvBuffer.baseAddress, lengthBuffer.baseAddress)
            }
        }
    }

    /// Maps hiredis's `err`/`errstr` to a `StateStoreError` naming the server (hiredis's messages
    /// are `strerror` texts or its own fixed phrases, never data).
    private func classify(_ context: UnsafeMutablePointer<redisContext>, doing operation: String) -> Failure {
        let code = context.pointee.err
        let detail = CHiredis_errstr(context).map { String(cString: $0) } ?? ""
        let prefix = "redis at \(url.endpoint): \(operation) failed"
        switch code {
        case REDIS_ERR_EOF:
            return Failure(error: StateStoreError(.unavailable, "\(prefix): the server closed the connection"), staleConnection: true)
        case REDIS_ERR_PROTOCOL:
            return Failure(error: StateStoreError(.corrupt, "\(prefix): protocol error (\(detail))"), staleConnection: false)
        case REDIS_ERR_IO where Self.timeoutTexts.contains(where: { detail.contains($0) }):
            return Failure(
                error: StateStoreError(.timeout, "\(prefix): no answer within \(timeout.tv_sec * 1000 + Int(timeout.tv_usec) / 1000) ms (\(detail))"),
                staleConnection: false)
        case REDIS_ERR_IO:
            let stale = Self.staleTexts.contains { detail.contains($0) }
            return Failure(error: StateStoreError(.unavailable, "\(prefix): \(detail)"), staleConnection: stale)
        default:  // REDIS_ERR_OTHER (e.g. name resolution), REDIS_ERR_OOM
            return Failure(error: StateStoreError(.unavailable, "\(prefix): \(detail.isEmpty ? "error \(code)" : detail)"), staleConnection: false)
        }
    }

    /// `strerror` texts of the errors a socket timeout surfaces as (`SO_RCVTIMEO` gives EAGAIN,
    /// a connect timeout ETIMEDOUT). Compared as text because hiredis may call into libc after
    /// the failure, so `errno` is not reliable by the time we look.
    private static let timeoutTexts: [String] = [EAGAIN, EWOULDBLOCK, ETIMEDOUT, EINPROGRESS].map { String(cString: strerror($0)) }
    private static let staleTexts: [String] = [ECONNRESET, EPIPE].map { String(cString: strerror($0)) }
}
