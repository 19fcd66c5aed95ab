import Dispatch

/// A task executor that runs jobs on Dispatch's default-QoS global queue, the queue
/// ``EventLoopTaskExecutor`` sends a busy listener's jobs to.
///
/// Swift's own global executor on Linux is a separate concurrent queue (two wide on two cores) that
/// feeds the same threads. While a loaded listener's jobs flood the global queue directly, that
/// separate queue gets one turn per pass through the flood: a task that starts there (a new
/// connection's first job, Hummingbird's accept loop) waits for a whole pass per job, which served
/// a burst of 64 new connections one every ~10 ms (bench/decisions/0014-service-group-on-the-requests-queue.md). Preferring this
/// executor for the tasks that start connections puts every job of the process's request path in
/// one first-in, first-out queue.
public final class PoolTaskExecutor: TaskExecutor {
    /// The one instance: the executor has no state.
    public static let shared = PoolTaskExecutor()

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        run(UnownedJob(job), as: self)
    }

    /// Runs `job` on this queue as `executor`, the task executor its task prefers, so that the
    /// runtime finds the task where it wants it and does not enqueue it again at its next call.
    /// The one place that picks the queue: the busy path of ``EventLoopTaskExecutor`` must use
    /// the same one, or it starves the tasks that wait here. The closure holds `executor` until
    /// the job has run.
    func run(_ job: UnownedJob, as executor: some TaskExecutor) {
        DispatchQueue.global().async {
            job.runSynchronously(on: executor.asUnownedTaskExecutor())
        }
    }
}
