import DedicatedThreads
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One command on its way to a worker thread, and the task waiting for its answer.
struct RedisJob: Sendable {
    let arguments: [[UInt8]]
    let enqueuedAt: ContinuousClock.Instant
    let continuation: CheckedContinuation<RedisWorker.Answer, Never>
}

/// A thread of the store's `BlockingWorkerPool`: it owns one `RedisConnection` for its whole
/// life and makes every hiredis call on it. hiredis blocks in `connect`/`read`/`write`, which must
/// never happen on Swift's cooperative pool; tasks queue commands and suspend until a worker
/// answers.
struct RedisWorker: BlockingWorker {
    typealias Answer = Result<RedisReply, StateStoreError>

    let connection: RedisConnection
    let timeoutMs: Int
    let health: RedisHealth

    /// Runs on the new thread, before it takes any command.
    init(url: RedisURL, credentials: RedisCredentials?, timeoutMs: Int, health: RedisHealth) {
        Self.blockSIGPIPE()
        connection = RedisConnection(url: url, credentials: credentials, timeoutMs: timeoutMs)
        self.timeoutMs = timeoutMs
        self.health = health
    }

    func perform(_ job: RedisJob) {
        let answer: Answer
        if ContinuousClock.now - job.enqueuedAt > .milliseconds(timeoutMs) {
            // Every connection stayed busy (a slow or hanging server) for the whole budget:
            // answering now keeps the caller's wait bounded instead of queuing behind others.
            answer = .failure(StateStoreError(.timeout, "redis at \(health.endpoint): no free connection within \(timeoutMs) ms"))
        } else {
            answer = connection.execute(job.arguments)
        }
        health.note(answer)
        job.continuation.resume(returning: answer)
    }

    func finish() {
        connection.close()
    }

    /// hiredis writes with plain `write(2)`: a write to a connection Redis has reset would raise
    /// SIGPIPE and kill the process. Blocking it on this worker thread only turns that into an
    /// `EPIPE` error (a blocked, thread-directed SIGPIPE just stays pending on this thread) and
    /// leaves the process's signal handling alone.
    private static func blockSIGPIPE() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}

/// Whether the workers' last answer reached Redis; only changes are logged, by whichever worker
/// sees one.
final class RedisHealth: Sendable {
    let endpoint: String
    private let logger: Logger
    private let reachable = Atomic<Bool>(true)

    init(endpoint: String, logger: Logger) {
        self.endpoint = endpoint
        self.logger = logger
    }

    /// Logs when Redis stops answering and when it answers again, not every failure.
    func note(_ answer: RedisWorker.Answer) {
        let reached: Bool
        switch answer {
        case .success: reached = true
        case .failure(let error): reached = error.kind == .corrupt
        }
        guard reachable.exchange(reached, ordering: .relaxed) != reached else { return }
        if reached {
            logger.notice("redis state store reachable again", metadata: ["redis": "\(endpoint)"])
        } else if case .failure(let error) = answer {
            logger.warning("redis state store failing", metadata: ["redis": "\(endpoint)", "error": "\(error.message)"])
        }
    }
}

extension BlockingWorkerPool where Worker == RedisWorker {
    /// `connections` threads named `pg-redis-N`, each a `RedisWorker` with its own connection.
    /// Commands the pool will never run (after a shutdown) fail as `.unavailable`.
    static func redis(
        url: RedisURL, credentials: RedisCredentials?, connections: Int, timeoutMs: Int, logger: Logger
    ) throws(RedisConfigurationError) -> BlockingWorkerPool<RedisWorker> {
        let health = RedisHealth(endpoint: url.endpoint, logger: logger)
        let endpoint = url.endpoint
        do {
            return try BlockingWorkerPool(
                threads: connections, name: { "pg-redis-\($0)" },
                reject: { job in
                    job.continuation.resume(returning: .failure(StateStoreError(.unavailable, "redis at \(endpoint): the state store was shut down")))
                },
                makeWorker: { _ in RedisWorker(url: url, credentials: credentials, timeoutMs: timeoutMs, health: health) })
        } catch {
            throw RedisConfigurationError("could not start redis worker thread \(error.index + 1) of \(error.count)")
        }
    }
}
