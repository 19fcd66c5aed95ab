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
