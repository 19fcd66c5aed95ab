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

/// The OS threads that make every hiredis call. hiredis blocks in `connect`/`read`/`write`, which
/// must never happen on Swift's cooperative pool, so each worker is a plain pthread owning one
/// `RedisConnection`; tasks queue commands here and suspend on a continuation until a worker
/// answers.
///
/// `@unchecked Sendable`: the mutable state (`queue`, `isShutdown`, `running`, `exitWaiters`) is
/// only touched with `mutex` held; `mutex`/`condition` are allocated once and freed in `deinit`,
/// which runs after every worker has exited (each worker's closure keeps the pool alive).
final class RedisWorkerPool: @unchecked Sendable {
    typealias Answer = Result<RedisReply, StateStoreError>

    struct Job {
        let arguments: [[UInt8]]
        let enqueuedAt: ContinuousClock.Instant
        let continuation: CheckedContinuation<Answer, Never>
    }

    let url: RedisURL
    let credentials: RedisCredentials?
    let timeoutMs: Int
    private let logger: Logger
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var queue: [Job] = []
    private var queueHead = 0
    private var isShutdown = false
    private var running = 0
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []
    /// Whether the last answer reached Redis; only changes of it are logged.
    private let reachable = Atomic<Bool>(true)

    init(url: RedisURL, credentials: RedisCredentials?, connections: Int, timeoutMs: Int, logger: Logger) throws(RedisConfigurationError) {
        self.url = url
        self.credentials = credentials
        self.timeoutMs = timeoutMs
        self.logger = logger
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        for index in 0..<connections {
            locked { running += 1 }
            let started = DedicatedThread.start(name: "pg-redis-\(index)") { [self] in workerLoop() }
            if !started {
                locked { running -= 1 }
                beginShutdown()
                throw RedisConfigurationError("could not start redis worker thread \(index + 1) of \(connections)")
            }
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Queues a command for the next free worker and waits for its answer.
    func execute(_ arguments: [[UInt8]]) async -> Answer {
        await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
            let accepted = locked { () -> Bool in
                guard !isShutdown else { return false }
                queue.append(Job(arguments: arguments, enqueuedAt: .now, continuation: continuation))
                pthread_cond_signal(condition)
                return true
            }
            if !accepted {
                continuation.resume(returning: .failure(StateStoreError(.unavailable, "redis at \(url.endpoint): the state store was shut down")))
            }
        }
    }

    /// Stops accepting commands, fails queued ones, and lets workers exit after their current
    /// command. Does not wait.
    func beginShutdown() {
        let abandoned = locked { () -> [Job] in
            isShutdown = true
            let pending = Array(queue[queueHead...])
            queue.removeAll()
            queueHead = 0
            pthread_cond_broadcast(condition)
            return pending
        }
        for job in abandoned {
            job.continuation.resume(returning: .failure(StateStoreError(.unavailable, "redis at \(url.endpoint): the state store was shut down")))
        }
    }

    /// ``beginShutdown()``, then waits until every worker has freed its connection and exited.
    func shutdown() async {
        beginShutdown()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = locked { () -> Bool in
                if running == 0 { return true }
                exitWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    // MARK: - Worker side

    private func workerLoop() {
        Self.blockSIGPIPE()
        let connection = RedisConnection(url: url, credentials: credentials, timeoutMs: timeoutMs)
        while let job = nextJob() {
            let answer: Answer
            let waited = ContinuousClock.now - job.enqueuedAt
            if waited > .milliseconds(timeoutMs) {
                // Every connection stayed busy (a slow or hanging server) for the whole budget:
                // answering now keeps the caller's wait bounded instead of queuing behind others.
                answer = .failure(StateStoreError(
                    .timeout, "redis at \(url.endpoint): no free connection within \(timeoutMs) ms"))
            } else {
                answer = connection.execute(job.arguments)
            }
            noteReachability(answer)
            job.continuation.resume(returning: answer)
        }
        connection.close()
        let waiters = locked { () -> [CheckedContinuation<Void, Never>] in
            running -= 1
            guard running == 0 else { return [] }
            defer { exitWaiters.removeAll() }
            return exitWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The next job, or `nil` once the pool is shut down.
    private func nextJob() -> Job? {
        locked { () -> Job? in
            while queueHead == queue.count && !isShutdown {
                pthread_cond_wait(condition, mutex)
            }
            guard !isShutdown else { return nil }
            let job = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            } else if queueHead >= 256 && queueHead * 2 >= queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            return job
        }
    }

    /// Logs when Redis stops answering and when it answers again, not every failure.
    private func noteReachability(_ answer: Answer) {
        let reached: Bool
        switch answer {
        case .success: reached = true
        case .failure(let error): reached = error.kind == .corrupt
        }
        guard reachable.exchange(reached, ordering: .relaxed) != reached else { return }
        if reached {
            logger.notice("redis state store reachable again", metadata: ["redis": "\(url.endpoint)"])
        } else if case .failure(let error) = answer {
            logger.warning("redis state store failing", metadata: ["redis": "\(url.endpoint)", "error": "\(error.message)"])
        }
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

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
