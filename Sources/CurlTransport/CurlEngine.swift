import CCurl
import DedicatedThreads
import Logging
import Synchronization

/// One libcurl multi handle and the dedicated OS thread that drives it.
///
/// Callers never touch libcurl: ``submit(_:)`` and ``cancel(_:)`` only change `state` under its
/// lock and poke the thread with ``CurlEventLoop/wake()``; the thread does every other libcurl call.
///
/// `@unchecked Sendable` because of the raw `CURLM *` and the thread-confined `events` and
/// `handles`. Only the engine thread uses them, with one exception: `events.wake()` (an eventfd
/// write, or `curl_multi_wakeup`, which libcurl documents as callable from any thread). It is
/// called only while holding `state`'s lock and only while `lifecycle` is not `.stopped`; the
/// engine thread sets `.stopped` under that same lock before it calls `curl_multi_cleanup` and
/// closes the descriptors. All other mutable data lives inside the `Mutex`.
final class CurlEngine: @unchecked Sendable {
    enum Phase {
        /// `send` allocated an id but has not handed the request over yet.
        case registered
        /// Cancelled in the `registered` phase; `submit` fails it instead of queueing it.
        case cancelledEarly
        case queued
        case active
    }

    enum Lifecycle {
        case running
        case draining(deadline: ContinuousClock.Instant)
        case stopped
    }

    struct State {
        var lifecycle = Lifecycle.running
        var exited = false
        /// libcurl or the engine thread could not be set up: every call fails as `internalError`.
        var startFailed = false
        var nextID: UInt64 = 0
        var phases: [UInt64: Phase] = [:]
        var queue = SubmissionQueue()
        var activeCount = 0
        var cancelRequests: [UInt64] = []
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private static let engineNumbers = Atomic<Int>(0)

    let configuration: CurlHTTPClient.Configuration
    let logger: Logger
    let metrics: CurlTransportMetrics
    /// OS thread name, unique per engine and at most 15 bytes (the kernel's limit).
    let threadName: String
    let multi: UnsafeMutableRawPointer?
    let state = Mutex(State())
    /// Reset easy handles for reuse; engine thread only.
    let handles: EasyHandlePool
    /// epoll + `curl_multi_socket_action`, or the portable polling loop; `nil` without a multi handle.
    let events: CurlEventLoop?

    init(configuration: CurlHTTPClient.Configuration, logger: Logger, metrics: CurlTransportMetrics) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        let number = Self.engineNumbers.add(1, ordering: .relaxed).newValue
        self.threadName = "pg-curl-\(number % 10_000_000)"
        // Enough to cover the handles freed and re-taken within one loop turn; more would only hold memory.
        self.handles = EasyHandlePool(limit: min(64, max(1, configuration.maxConcurrentTransfers)))
        if curlGlobalInitCode == Int(CURLE_OK.rawValue), let multi = curl_multi_init() {
            // The keep-alive pool: idle connections curl keeps for reuse across transfers.
            _ = CCurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, configuration.maxConnections))
            self.multi = multi
            self.events = CurlEventLoop(multi: multi, preferSockets: configuration.socketEvents)
        } else {
            self.multi = nil
            self.events = nil
        }
    }

    /// Starts the engine thread; without one (or without a multi handle) the engine is stopped.
    func start() {
        if multi != nil, DedicatedThread.start(name: threadName, { self.runLoop() }) {
            logger.debug("curl engine started", metadata: ["thread": "\(threadName)"])
            return
        }
        logger.error("curl engine could not start", metadata: ["curlGlobalInit": "\(curlGlobalInitCode)"])
        state.withLock {
            $0.lifecycle = .stopped
            $0.exited = true
            $0.startFailed = true
        }
        if let multi { curl_multi_cleanup(multi) }
        events?.close()
    }

    // MARK: Caller side

    /// Allocates an id; the caller must pass it to ``submit(_:)`` exactly once.
    func register() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.phases[state.nextID] = .registered
            return state.nextID
        }
    }

    /// Queues a request for the engine thread, or fails it at once (cancelled, shut down).
    func submit(_ submission: Submission) {
        let events = self.events
        let rejection: CurlTransportError? = state.withLock { state in
            let phase = state.phases.removeValue(forKey: submission.id)
            if case .cancelledEarly = phase {
                return .cancelled(host: submission.request.host, facts: nil)
            }
            if state.startFailed {
                return CurlTransportError(
                    kind: .internalError, delivery: .notSent,
                    message: "the transport could not start (curl_global_init, curl_multi_init or thread creation failed); see the logs",
                    host: submission.request.host)
            }
            guard case .running = state.lifecycle, let events else {
                return .shutdown(host: submission.request.host, facts: nil)
            }
            state.phases[submission.id] = .queued
            state.queue.append(submission)
            events.wake()
            return nil
        }
        if let rejection {
            metrics.failed(rejection)
            submission.continuation.resume(throwing: rejection)
        }
    }

    /// Cancels request `id` wherever it is: before submission, in the queue or on the wire.
    func cancel(_ id: UInt64) {
        let events = self.events
        let dropped: Submission? = state.withLock { state in
            switch state.phases[id] {
            case .none, .cancelledEarly:
                return nil
            case .registered:
                state.phases[id] = .cancelledEarly
                return nil
            case .queued:
                state.phases[id] = nil
                return state.queue.remove(id: id)
            case .active:
                state.cancelRequests.append(id)
                if case .stopped = state.lifecycle {} else { events?.wake() }
                return nil
            }
        }
        if let dropped {
            let error = CurlTransportError.cancelled(host: dropped.request.host, facts: nil)
            metrics.failed(error)
            dropped.continuation.resume(throwing: error)
        }
    }

    // MARK: Shutdown

    /// Stops accepting requests and lets running and queued ones finish until the grace period
    /// ends; then fails what is left with kind `shutdown`. Calling it again can only shorten it.
    func beginShutdown(gracePeriodMs: Int) {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(max(0, gracePeriodMs)))
        let events = self.events
        state.withLock { state in
            switch state.lifecycle {
            case .stopped:
                return
            case .draining(let current) where current <= deadline:
                return
            case .running, .draining:
                state.lifecycle = .draining(deadline: deadline)
                events?.wake()
            }
        }
    }

    /// Returns once the engine thread has exited and every caller has its answer.
    func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyExited = state.withLock { state in
                if state.exited { return true }
                state.stopWaiters.append(continuation)
                return false
            }
            if alreadyExited { continuation.resume() }
        }
    }

    /// For tests: transfers on the wire, requests queued, and ids tracked at all.
    var counts: (active: Int, queued: Int, tracked: Int) {
        state.withLock { ($0.activeCount, $0.queue.count, $0.phases.count) }
    }
}
