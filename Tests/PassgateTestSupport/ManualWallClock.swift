import PassgateCore
import Synchronization

/// A clock that returns a set time and moves only when told.
public final class ManualWallClock: WallClock {
    // `Mutex` makes the shared mutable time safe across tasks.
    private let time: Mutex<Int64>

    public init(milliseconds: Int64) {
        time = Mutex(milliseconds)
    }

    public func nowMilliseconds() -> Int64 { time.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative value).
    public func advance(milliseconds: Int64) {
        time.withLock { $0 += milliseconds }
    }

    /// Sets the clock.
    public func set(milliseconds: Int64) {
        time.withLock { $0 = milliseconds }
    }
}
