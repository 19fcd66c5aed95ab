import PassgateCore
import CCurl
import DedicatedThreads
import Logging
import Synchronization

/// libcurl multi handles and the dedicated OS thread that drives them: the thin owner of a
/// ``CurlEngineStateMachine`` (calls, queue, lifecycle) and, on the thread, a ``CurlWatchdog`` and
/// a ``CurlShardPicker`` (which multi handle a transfer goes on).
///
/// Callers never touch libcurl: ``submit(_:)`` and ``cancel(_:)`` only feed the state machine
/// under its lock and, when it says so (once per engine turn), poke the thread with
/// ``CurlEventLoop/wake()`` after releasing the lock; the thread performs every other libcurl
/// call. Continuations are resumed outside the lock too. Waking under the lock made the woken
/// thread, on the other core at once, find the lock still held while the waker was inside the
/// wake-up system call, and spin for it at the end of its turn.
///
/// The thread's lifecycle is shared with the package's other dedicated threads: it is started by
/// ``DedicatedThread``, and its exit opens an ``ExitLatch`` (``waitUntilStopped()``, and the
/// client's `Service.run`). It is not a `BlockingWorkerPool` thread: it sleeps in `epoll_wait` or
/// `curl_multi_poll`, not on a condition variable, so it is woken through curl's own channel.
///
/// `@unchecked Sendable` because of the raw `CURLM *` handles and the thread-confined `events` and
/// `handles`. Only the engine thread uses them, with one exception: `events.wake()` (an eventfd
/// write, or `curl_multi_wakeup`, which libcurl documents as callable from any thread), which
/// callers make only when the state machine says so. A wake that comes after the engine thread
/// has stopped does nothing: ``CurlEventLoop/close()`` shuts the wake gate before it frees the
/// handles and closes the descriptors.
final class CurlEngine: @unchecked Sendable {
    typealias StateMachine = CurlEngineStateMachine<Submission>

    /// A request handed over by ``CurlHTTPClient/send(_:)`` and not yet finished.
    struct Submission: Sendable {
        let id: UInt64
        let request: CurlHTTPClient.Request
        let continuation: CheckedContinuation<CurlHTTPClient.Response, any Error>
    }

    private static let engineNumbers = Atomic<Int>(0)
    /// Multi handles at most, however many transfers are allowed (``CurlShardPicker``).
    static let maxShards = 32

    let configuration: CurlHTTPClient.Configuration
    let logger: Logger
    let metrics: CurlTransportMetrics
    /// OS thread name, unique per engine and at most 15 bytes (the kernel's limit).
    let threadName: String
    let state: Mutex<StateMachine>
    /// Opens when the engine thread has exited and every caller has its answer.
    let exited = ExitLatch(threads: 1)
    /// Reset easy handles for reuse; engine thread only.
    let handles: EasyHandlePool
    /// The multi handles, driven by epoll + `curl_multi_socket_action` or by the portable polling
    /// loop; `nil` when libcurl could not be set up.
    let events: CurlEventLoop?

    init(configuration: CurlHTTPClient.Configuration, logger: Logger, metrics: CurlTransportMetrics) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        let number = Self.engineNumbers.add(1, ordering: .relaxed).newValue
        self.threadName = "pg-curl-\(number % 10_000_000)"
        self.state = Mutex(StateMachine(maxActive: configuration.maxConcurrentTransfers))
        // Enough to cover the handles freed and re-taken within one loop turn; more would only hold memory.
        self.handles = EasyHandlePool(limit: min(64, max(1, configuration.maxConcurrentTransfers)))
        if curlGlobalInitCode == Int(CURLE_OK.rawValue) {
            let shards = CurlShardPicker.shardCount(
                maxConcurrentTransfers: configuration.maxConcurrentTransfers,
                capacity: configuration.transfersPerShard, limit: Self.maxShards)
            self.events = CurlEventLoop(
                shardCount: shards, maxConnections: configuration.maxConnections, preferSockets: configuration.socketEvents)
        } else {
            self.events = nil
        }
    }

    /// Starts the engine thread; without one (or without a multi handle) the engine is stopped.
    func start() {
        if events != nil, DedicatedThread.start(name: threadName, { self.runLoop() }) {
            logger.debug("curl engine started", metadata: ["thread": "\(threadName)"])
            return
        }
        logger.error("curl engine could not start", metadata: ["curlGlobalInit": "\(curlGlobalInitCode)"])
        state.withLock { $0.failedToStart() }
        events?.close()
        exited.threadExited()
    }

    // MARK: Caller side

    /// Allocates an id; the caller must pass it to ``submit(_:)`` exactly once.
    func register() -> UInt64 {
        state.withLock { $0.register() }
    }

    /// Queues a request for the engine thread, or fails it at once (cancelled, shut down).
    func submit(_ submission: Submission) {
        switch state.withLock({ $0.submit(submission.id, submission) }) {
        case .wakeEngine: events?.wake()
        case .queued: break
        case .fail(let submission, let refusal): fail(submission, refusal)
        }
    }

    /// Cancels request `id` wherever it is: before submission, in the queue or on the wire.
    func cancel(_ id: UInt64) {
        switch state.withLock({ $0.cancel(id) }) {
        case .wakeEngine: events?.wake()
        case .none: break
        case .fail(let submission, let refusal): fail(submission, refusal)
        }
    }

    /// Answers a call that never reached libcurl: not sent.
    func fail(_ submission: Submission, _ refusal: StateMachine.Refusal) {
        let host = submission.request.host
        let error: CurlTransportError
        switch refusal {
        case .cancelled:
            error = .cancelled(host: host, facts: nil)
        case .shutdown:
            error = .shutdown(host: host, facts: nil)
        case .startFailed:
            error = CurlTransportError(
                kind: .internalError, delivery: .notSent,
                message: "the transport could not start (curl_global_init, curl_multi_init or thread creation failed); see the logs",
                host: host)
        }
        metrics.failed(error)
        submission.continuation.resume(throwing: error)
    }

    // MARK: Shutdown

    /// Stops accepting requests and lets running and queued ones finish until the grace period
    /// ends; then fails what is left with kind `shutdown`. Calling it again can only shorten it.
    func beginShutdown(gracePeriodMs: Int) {
        let deadline = configuration.clock.monotonicNow().advanced(by: .milliseconds(max(0, gracePeriodMs)))
        if state.withLock({ $0.beginShutdown(deadline: deadline) }) { events?.wake() }
    }

    /// Returns once the engine thread has exited and every caller has its answer.
    func waitUntilStopped() async {
        await exited.wait()
    }
}
