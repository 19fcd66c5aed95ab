import PassgateCore
import Synchronization

/// The `Date` header's value, written once per second of its clock and shared by every connection
/// of a listener (a `Mutex` held for a comparison; the text is written by PassgateCore's one
/// timestamp writer).
final class HTTPDateCache: Sendable {
    private let clock: any PassgateClock
    private let cached = Mutex<(second: Int64, text: String)>((Int64.min, ""))

    init(clock: any PassgateClock) {
        self.clock = clock
    }

    /// The current second's date, as `Sat, 21 Nov 2026 10:15:00 GMT`.
    func now() -> String {
        let second = CivilDate.floorDivide(clock.nowMilliseconds(), 1000)
        return cached.withLock { cached in
            if cached.second != second {
                cached = (second, Timestamp.string(milliseconds: second * 1000, style: .httpDate))
            }
            return cached.text
        }
    }
}
