import Foundation
import Synchronization

/// Where "now" comes from, so tests can pin the time (token expiry, timestamp skew).
public protocol WallClock: Sendable {
    /// The current time as milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
}

/// The system's real-time clock (`Date`), immune to the process time zone.
public struct SystemWallClock: WallClock {
    public init() {}

    public func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// A clock that returns a set time and moves only when told: for tests and the sandbox.
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
