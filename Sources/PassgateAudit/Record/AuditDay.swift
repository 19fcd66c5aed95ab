import PassgateCore

/// A calendar day (`2026-11-21`) in some fixed UTC offset: what `passgate usage` groups by.
public struct AuditDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// `nil` for an impossible date (2026-02-30) or a year outside 1970-9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1970...9999).contains(year), (1...12).contains(month), day >= 1 else { return nil }
        let days = CivilDate.days(fromCivil: Int64(year), Int64(month), Int64(day))
        guard CivilDate.civil(fromDays: days) == (Int64(year), Int64(month), Int64(day)) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; `nil` for any other shape or an impossible date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day on which the instant `milliseconds` falls, `offsetMilliseconds` east of UTC.
    public init(milliseconds: Int64, offsetMilliseconds: Int64) {
        let days = CivilDate.floorDivide(milliseconds + offsetMilliseconds, AuditTime.millisecondsPerDay)
        let (year, month, day) = CivilDate.civil(fromDays: days)
        self.year = Int(year)
        self.month = Int(month)
        self.day = Int(day)
    }

    /// The instant this day starts, `offsetMilliseconds` east of UTC, as epoch milliseconds.
    public func startMilliseconds(offsetMilliseconds: Int64) -> Int64 {
        CivilDate.days(fromCivil: Int64(year), Int64(month), Int64(day)) * AuditTime.millisecondsPerDay - offsetMilliseconds
    }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: AuditDay, rhs: AuditDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
