/// What one thread of a ``BlockingWorkerPool`` does with the jobs it takes.
///
/// A worker is created on its own thread (``BlockingWorkerPool``'s `makeWorker`) and used only
/// there, so it may own things that must never move between threads or touch Swift's
/// cooperative pool: a hiredis connection, an open file. It need not be `Sendable`.
public protocol BlockingWorker: SendableMetatype {
    associatedtype Job: Sendable

    /// Runs one job. Jobs taken together are performed oldest first, then ``idle(draining:)``
    /// follows. A job carrying a continuation is resumed here, outside every lock.
    mutating func perform(_ job: Job)

    /// The worker's own work between jobs: after the jobs taken together, when ``wakeUpAt``
    /// passes, and once the pool starts draining. `draining`: the pool is draining, so do what
    /// must be done before exiting (fsync, say). Returns whether nothing of its own is left; a
    /// draining thread exits only after `true` with an empty queue (after `false` it is called
    /// again at ``wakeUpAt``). The default does nothing and returns `true`.
    mutating func idle(draining: Bool) -> Bool

    /// When the thread should wake for ``idle(draining:)`` even without a job; `nil` (the
    /// default): only for jobs. Read before every wait.
    var wakeUpAt: ContinuousClock.Instant? { get }

    /// The last call on the thread, before it exits (close connections and files here). The
    /// default does nothing.
    mutating func finish()
}

extension BlockingWorker {
    public mutating func idle(draining: Bool) -> Bool { true }
    public var wakeUpAt: ContinuousClock.Instant? { nil }
    public mutating func finish() {}
}
