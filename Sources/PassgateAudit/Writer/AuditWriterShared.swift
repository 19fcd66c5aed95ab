#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the recording threads and the writer thread share: the lines not yet taken by the
/// writer, the waiters, and the counters behind `AuditWriterStatus`.
///
/// `@unchecked Sendable`: `state` is only touched with `mutex` held; `mutex` and `condition` are
/// allocated once and freed in `deinit`, which runs after the writer thread has exited (its
/// closure keeps this object alive).
final class AuditWriterShared: @unchecked Sendable {
    enum Phase { case running, stopping, stopped }

    struct State {
        /// Lines not yet taken by the writer thread.
        var pending: [[UInt8]] = []
        /// Bytes accepted and not yet appended (pending plus the writer's backlog), against `maxBufferedBytes`.
        var queuedBytes = 0
        var phase = Phase.running
        var flushWaiters: [CheckedContinuation<Bool, Never>] = []
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        var lastError: String?
        /// Records taken into memory by `record`.
        var accepted = 0
        /// Records appended to a file.
        var written = 0
        /// Records refused (buffer full, or after shutdown) or given up at shutdown.
        var dropped = 0
        /// Accepted records given up at shutdown (part of `dropped`).
        var lost = 0
        /// Whether the last `record` was refused, so only the start of a refusal run is logged.
        var refusing = false
        /// The writer thread is blocked on the condition: only then does `record` need to signal
        /// (a futex wake per record would cost more than the record itself).
        var writerIsWaiting = false
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state = State()

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Wakes the writer thread; call with or without the lock.
    func wake() {
        pthread_cond_signal(condition)
    }

    /// Writer side: waits until `isReady` holds or the monotonic `deadline` (ns) passes, then
    /// runs `take` under the same lock hold.
    func wait<T>(until deadline: Int64?, isReady: (State) -> Bool, take: (inout State) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(state) {
            state.writerIsWaiting = true
            defer { state.writerIsWaiting = false }
            if let deadline {
                guard deadline > monotonicNanoseconds() else { break }
                var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                #if canImport(Darwin)
                // Darwin has no monotonic condition clock: wait relative to now.
                let relative = max(0, deadline - monotonicNanoseconds())
                time = timespec(tv_sec: Int(relative / 1_000_000_000), tv_nsec: Int(relative % 1_000_000_000))
                pthread_cond_timedwait_relative_np(condition, mutex, &time)
                #else
                pthread_cond_timedwait(condition, mutex, &time)
                #endif
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        return take(&state)
    }
}
