#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The `Date` header's value (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`), formatted
/// once per second and shared by every connection.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// The current second's date.
    static func now() -> String {
        let second = time(nil)
        return cache.withLock { cached in
            if cached.second != second {
                cached = (second, format(second))
            }
            return cached.text
        }
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `seconds` since the epoch as an IMF-fixdate.
    static func format(_ seconds: Int) -> String {
        var clock = time_t(seconds)
        var parts = tm()
        gmtime_r(&clock, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
