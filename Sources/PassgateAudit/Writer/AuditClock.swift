#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock, which the writer's condition variable waits on (wall-clock
/// steps must not stretch or skip an fsync interval).
func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// Epoch milliseconds from the wall clock (record times, rotated file names).
func wallClockMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

/// The wall clock the writer reads for rotated files' names and for `maxAgeDays`: the system's,
/// or a test's own, so rotation and retention can be tested without sleeping.
public struct AuditClock: Sendable {
    /// Epoch milliseconds now.
    public let wallMilliseconds: @Sendable () -> Int64

    /// A clock that answers `wallMilliseconds()`.
    public init(wallMilliseconds: @escaping @Sendable () -> Int64) {
        self.wallMilliseconds = wallMilliseconds
    }

    /// `CLOCK_REALTIME`.
    public static let system = AuditClock(wallMilliseconds: wallClockMilliseconds)
}
