#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one source of time in Passgate, injected wherever time is read, so a test moves time
/// instead of waiting for it.
///
/// Two readings, because they answer different questions: wall time for what is written down or
/// sent (provider timestamps, log and audit lines, file names, token expiry in the sandbox), which
/// may step when the system clock is set; monotonic time for what is measured (latencies,
/// deadlines, rate buckets, replay-entry expiry, the circuit breaker), which never steps.
public protocol PassgateClock: Sendable {
    /// Wall time: milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
    /// Monotonic time, as an instant of `ContinuousClock` so durations and deadlines keep Swift's
    /// types. Only differences mean anything.
    func monotonicNow() -> ContinuousClock.Instant
}

extension PassgateClock {
    /// Monotonic milliseconds since an arbitrary origin fixed for the process: for state machines
    /// that keep plain integers (the breaker, the memory store).
    public func monotonicMilliseconds() -> Int64 {
        let elapsed = (monotonicNow() - monotonicOrigin).components
        // Floored, not truncated: an instant taken before the origin (a test clock made before the
        // first reading) is negative, and truncating toward zero would make two readings 100 ms
        // apart differ by 99.
        let (quotient, remainder) = elapsed.attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000)
        return elapsed.seconds * 1000 + quotient - (remainder < 0 ? 1 : 0)
    }

    /// Milliseconds, as a fraction, from `start` to now on the monotonic clock (a latency).
    public func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (monotonicNow() - start).components  // one 128-bit split, not one per field
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }
}

/// Taken once, early: every clock's ``PassgateClock/monotonicMilliseconds()`` counts from it.
private let monotonicOrigin = ContinuousClock.now

/// The system's clocks: `CLOCK_REALTIME` (immune to the process time zone) and `ContinuousClock`.
public struct SystemClock: PassgateClock {
    public init() {}

    public func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    public func monotonicNow() -> ContinuousClock.Instant { .now }
}

