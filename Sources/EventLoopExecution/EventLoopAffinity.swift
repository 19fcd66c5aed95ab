import Synchronization

/// Where a listener runs its requests' code: on the event loop that read them while few are in
/// flight, on Swift's global pool once more are.
///
/// A request that runs on its loop is read, handled and answered by one thread, and a
/// continuation resumed elsewhere (the curl engine's answer) wakes only that loop. On Swift's
/// pool the same request also wakes a pool thread twice, which is most of what one request at a
/// time costs. Under load the pool is the better place: any idle thread takes the next job, while
/// a loop runs one job at a time between its socket reads and writes.
///
/// The count is the listener's requests in flight, from the moment a request has been read until
/// its answer is ready (``requestStarted()``, ``requestFinished()``), and read once per job a
/// request's task enqueues (``EventLoopTaskExecutor``), so a request moves to the pool as soon as
/// others arrive and back when they are done.
public final class EventLoopAffinity: Sendable {
    /// The most requests in flight at which their jobs still run on their loops (at least 1).
    public let limit: Int
    private let inFlight = Atomic<Int>(0)

    /// - Parameter limit: at most this many requests in flight run on their loops; values below 1
    ///   count as 1 (a listener that should never use its loops does not install the executor).
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Whether the next job of a request should run on its event loop: while at most `limit`
    /// requests, this one included, are in flight.
    public var prefersEventLoop: Bool {
        inFlight.load(ordering: .relaxed) <= limit
    }

    /// Requests in flight now (for tests and diagnostics).
    public var requestsInFlight: Int {
        inFlight.load(ordering: .relaxed)
    }

    /// A request is in flight; pair with ``requestFinished()``.
    public func requestStarted() {
        inFlight.add(1, ordering: .relaxed)
    }

    /// A request counted by ``requestStarted()`` has its answer.
    public func requestFinished() {
        inFlight.subtract(1, ordering: .relaxed)
    }
}
