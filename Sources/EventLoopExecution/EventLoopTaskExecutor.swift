public import NIOCore

/// A task executor that runs a task's jobs on one NIO event loop while its
/// ``EventLoopAffinity`` prefers the loop, and on a thread of Swift's global pool otherwise.
///
/// Each request's task prefers it (``HTTP1DispatchChannel``), so its nonisolated code, and that of
/// its structured child tasks, continues on the thread that read the request, and a continuation
/// resumed by another thread (the curl engine, a worker) comes back to that loop instead of to a
/// pool thread that must then hand the response to the loop again.
///
/// Jobs run in the loop's task queue between its I/O, in the order they were enqueued. Code that
/// blocks would block the loop's other connections: what can block (Redis, file writes) runs on
/// `BlockingWorkerPool` threads, and what only computes (a signature, a decryption) holds the loop
/// no longer than it would hold a pool thread, and only while few requests are in flight.
///
/// The loop must outlive every task that prefers it: NIO drops a job enqueued on a loop that has
/// shut down. Passgate shuts its loops down only after its listeners, and with them every
/// request's task, have finished.
public final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop jobs run on while ``affinity`` prefers it.
    public let eventLoop: any EventLoop
    /// The listener's count of requests in flight, which decides where each job runs.
    public let affinity: EventLoopAffinity

    /// An executor for `eventLoop` whose choice follows `affinity`; one per connection.
    public init(_ eventLoop: any EventLoop, affinity: EventLoopAffinity) {
        self.eventLoop = eventLoop
        self.affinity = affinity
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard affinity.prefersEventLoop else {
            // On the pool as this executor, not through `globalConcurrentExecutor`: a job the
            // global executor runs has no current task executor, so at every later call into
            // nonisolated async code the runtime would enqueue it here again; and in the queue the service's other tasks wait in
            // (bench/decisions/0013-requests-on-their-event-loop.md, 0014-service-group-on-the-requests-queue.md).
            PoolTaskExecutor.shared.run(job, as: self)
            return
        }
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
