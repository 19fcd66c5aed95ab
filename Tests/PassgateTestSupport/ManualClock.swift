import PassgateCore
import Synchronization

/// A clock that stands still until told to move: wall and monotonic time move together by
/// ``advance(milliseconds:)``; ``set(milliseconds:)`` steps the wall clock alone, as an operator
/// setting the system time would.
public final class ManualClock: PassgateClock {
    private struct Time {
        var wallMs: Int64
        var monotonic: ContinuousClock.Instant
    }

    // `Mutex` makes the shared mutable time safe across tasks.
    private let time: Mutex<Time>

    public init(milliseconds: Int64) {
        time = Mutex(Time(wallMs: milliseconds, monotonic: .now))
    }

    public func nowMilliseconds() -> Int64 { time.withLock { $0.wallMs } }

    public func monotonicNow() -> ContinuousClock.Instant { time.withLock { $0.monotonic } }

    /// Moves both clocks forward (a negative value moves the wall clock back, never the monotonic one).
    public func advance(milliseconds: Int64) {
        time.withLock { time in
            time.wallMs += milliseconds
            if milliseconds > 0 { time.monotonic = time.monotonic.advanced(by: .milliseconds(milliseconds)) }
        }
    }

    /// Sets the wall clock.
    public func set(milliseconds: Int64) {
        time.withLock { $0.wallMs = milliseconds }
    }
}
