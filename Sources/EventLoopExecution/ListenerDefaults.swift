/// The threads a listener runs on when the configuration leaves them out: Passgate's API listener
/// and the bench's bare proxy both take them from here, so the bare stack is measured in the shape
/// Passgate runs in.
///
/// A loop per core, and a request stays on the loop that read it while up to 64 per loop are in
/// flight. A request handled on its loop is read, run and answered by one thread, and the curl
/// engine's answer resumes it there: two thread crossings per request instead of four through
/// Swift's pool, and two busy threads plus the curl engine's on two cores instead of four. Beyond
/// 64 per loop (a thousand held carrier calls whose answers come back in bursts) the pool's idle
/// threads take the overflow, so one loop's queue does not set the latency of every call behind
/// it (bench/decisions/0013-requests-on-their-event-loop.md).
public enum ListenerDefaults {
    /// Requests in flight per event loop that still run on their loop by default.
    public static let requestsPerEventLoop = 64

    /// Event loop threads by default: one per core, at least one.
    public static func eventLoops(cores: Int) -> Int {
        max(1, cores)
    }

    /// ``EventLoopAffinity``'s limit by default: ``requestsPerEventLoop`` per loop, at most 4,096
    /// (the largest `server.requestsOnEventLoop` accepts).
    public static func requestsOnEventLoop(loops: Int) -> Int {
        min(4_096, max(1, loops) * requestsPerEventLoop)
    }
}
