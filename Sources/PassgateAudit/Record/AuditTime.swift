import PassgateCore

/// The audit log's clock arithmetic: ISO-8601 UTC text with milliseconds, and calendar days in a
/// fixed UTC offset.
///
/// Computed from the epoch with Howard Hinnant's civil-date algorithms, never through the process
/// time zone or a `DateFormatter`: the same instant gives the same text under any `TZ`.
public enum AuditTime {
    static let millisecondsPerDay: Int64 = 86_400_000

    /// `2026-11-21T10:15:00.123Z` for `milliseconds` since the Unix epoch.
    public static func iso8601(milliseconds: Int64) -> String {
        Timestamp.string(milliseconds: milliseconds, style: .iso8601)
    }

    /// `20261121T101500Z`, the sortable stamp in rotated file names.
    static func compactStamp(milliseconds: Int64) -> String {
        Timestamp.string(milliseconds: milliseconds, style: .compact)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (UTC only, as the writer emits) to epoch
    /// milliseconds; `nil` for anything else or an impossible date.
    public static func parseISO8601(_ text: some StringProtocol) -> Int64? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 20, utf8.last == UInt8(ascii: "Z") else { return nil }
        let separators: [(Int, UInt8)] = [(4, 45), (7, 45), (10, 84), (13, 58), (16, 58)]  // - - T : :
        guard separators.allSatisfy({ utf8[$0.0] == $0.1 }) else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in utf8[range] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var milli: Int64 = 0
        if utf8.count > 20 {
            // Fraction: `.` and 1-9 digits; only the first three count.
            guard utf8[19] == UInt8(ascii: "."), (21...29).contains(utf8.count - 1) else { return nil }
            let digits = utf8[20..<(utf8.count - 1)]
            guard digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            for (index, byte) in digits.prefix(3).enumerated() {
                milli += Int64(byte - 48) * [100, 10, 1][index]
            }
        } else if utf8[19] != UInt8(ascii: "Z") {
            return nil
        }
        guard let date = AuditDay(year: Int(year), month: Int(month), day: Int(day)), hour < 24, minute < 60, second < 60 else { return nil }
        return date.startMilliseconds(offsetMilliseconds: 0) + hour * 3_600_000 + minute * 60_000 + second * 1000 + milli
    }

}
