/// CMCC's 17-digit `yyyyMMddHHmmssSSS` time in Beijing time (UTC+8, no daylight saving).
///
/// Computed arithmetically from the epoch, never through the process time zone or a
/// `DateFormatter` (whose `YYYY` week-year pattern has bitten integrators): the same instant
/// gives the same string under `TZ=UTC`, `TZ=America/New_York` or `TZ=Asia/Shanghai`.
public enum BeijingTimestamp {
    /// Beijing is UTC+8 all year.
    public static let offsetMilliseconds: Int64 = 8 * 3_600_000

    /// The 17-digit string for `milliseconds` since the Unix epoch.
    public static func string(milliseconds: Int64) -> String {
        Timestamp.string(milliseconds: milliseconds, offsetMilliseconds: offsetMilliseconds, style: .digits17)
    }

    /// The current Beijing time from `clock`.
    public static func now(_ clock: some PassgateClock) -> String {
        string(milliseconds: clock.nowMilliseconds())
    }

    /// Parses a 17-digit Beijing timestamp back to epoch milliseconds; `nil` if it is not
    /// exactly 17 digits or names an impossible date or time.
    public static func parse(_ text: some StringProtocol) -> Int64? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 17, utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func field(_ start: Int, _ length: Int) -> Int64 {
            utf8[start..<start + length].reduce(0) { $0 * 10 + Int64($1 - 48) }
        }
        let (year, month, day) = (field(0, 4), field(4, 2), field(6, 2))
        let (hour, minute, second, milli) = (field(8, 2), field(10, 2), field(12, 2), field(14, 3))
        guard (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
        let days = CivilDate.days(fromCivil: year, month, day)
        // Reject 20190230 and the like: the date must survive the round trip.
        guard day >= 1, CivilDate.civil(fromDays: days) == (year, month, day) else { return nil }
        let local = days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + milli
        return local - offsetMilliseconds
    }
}
