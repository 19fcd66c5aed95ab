public import NIOCore

/// A task executor that runs every job on one NIO event loop.
///
/// A task that prefers it (`withTaskExecutorPreference`) runs its nonisolated code, and that of
/// its structured child tasks, on the loop's own thread. A connection's request handler then
/// continues on the thread that read the request, and a continuation resumed by another thread
/// (the curl engine, a worker) hands the rest straight back to that loop, instead of to Swift's
/// global pool and from there to the loop again to write the response.
///
/// Jobs run in the loop's task queue, between its I/O, in the order they were enqueued. Code
/// that blocks therefore blocks the connections of that loop: what can block (Redis, file
/// writes) runs on `BlockingWorkerPool` threads, and a job that only computes (a signature,
/// a decryption) holds the loop no longer than it would hold a pool thread.
public final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop every job runs on.
    public let eventLoop: any EventLoop

    /// An executor for `eventLoop`. One per loop is enough, but any number may exist.
    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
