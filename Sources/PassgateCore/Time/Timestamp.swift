/// The one timestamp writer: an instant as text in the styles Passgate writes, computed from the
/// epoch with the civil-date algorithms (`CivilDate`), never through the process time zone or a
/// `DateFormatter`: the same instant gives the same text under any `TZ`, and no formatter costs
/// more than the rest of a log line.
public enum Timestamp {
    public enum Style: Sendable {
        /// `2026-11-21T10:15:00.123Z`: logs, audit lines.
        case iso8601
        /// `2026-11-21T10:15:00Z`: Alibaba Cloud's `Timestamp`.
        case iso8601Seconds
        /// `20261121T101500Z`: sortable file-name stamps.
        case compact
        /// `20261121101500123`: CMCC's `yyyyMMddHHmmssSSS`.
        case digits17
        /// `Sat, 21 Nov 2026 10:15:00 GMT`: HTTP's `Date` header (RFC 9110's IMF-fixdate; the
        /// offset is ignored, the date is always GMT).
        case httpDate
    }

    private static let weekdays: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `milliseconds` since the Unix epoch, shifted by `offsetMilliseconds` (Beijing: +8 h), in `style`.
    public static func string(milliseconds: Int64, offsetMilliseconds: Int64 = 0, style: Style) -> String {
        if style == .httpDate { return httpDate(milliseconds: milliseconds) }
        let local = milliseconds + offsetMilliseconds
        let days = CivilDate.floorDivide(local, 86_400_000)
        let msOfDay = local - days * 86_400_000
        let (year, month, day) = CivilDate.civil(fromDays: days)
        let iso = style == .iso8601 || style == .iso8601Seconds
        return String(unsafeUninitializedCapacity: 24) { text in
            var out = Cursor(text: text)
            out.digits(year, 4)
            if iso { out.put(UInt8(ascii: "-")) }
            out.digits(month, 2)
            if iso { out.put(UInt8(ascii: "-")) }
            out.digits(day, 2)
            if style != .digits17 { out.put(UInt8(ascii: "T")) }
            out.digits(msOfDay / 3_600_000, 2)
            if iso { out.put(UInt8(ascii: ":")) }
            out.digits(msOfDay / 60_000 % 60, 2)
            if iso { out.put(UInt8(ascii: ":")) }
            out.digits(msOfDay / 1000 % 60, 2)
            if style == .iso8601 { out.put(UInt8(ascii: ".")) }
            if style == .iso8601 || style == .digits17 { out.digits(msOfDay % 1000, 3) }
            if style != .digits17 { out.put(UInt8(ascii: "Z")) }
            return out.count
        }
    }

    /// `Sat, 21 Nov 2026 10:15:00 GMT`. 1970-01-01 was a Thursday.
    private static func httpDate(milliseconds: Int64) -> String {
        let days = CivilDate.floorDivide(milliseconds, 86_400_000)
        let secondOfDay = (milliseconds - days * 86_400_000) / 1000
        let (year, month, day) = CivilDate.civil(fromDays: days)
        let weekday = Int((days % 7 + 11) % 7)  // days 0 (Thursday) -> 4
        return String(unsafeUninitializedCapacity: 29) { text in
            var out = Cursor(text: text)
            out.put(weekdays[weekday])
            out.put(", ")
            out.digits(day, 2)
            out.put(UInt8(ascii: " "))
            out.put(months[Int(month) - 1])
            out.put(UInt8(ascii: " "))
            out.digits(year, 4)
            out.put(UInt8(ascii: " "))
            out.digits(secondOfDay / 3600, 2)
            out.put(UInt8(ascii: ":"))
            out.digits(secondOfDay / 60 % 60, 2)
            out.put(UInt8(ascii: ":"))
            out.digits(secondOfDay % 60, 2)
            out.put(" GMT")
            return out.count
        }
    }

    /// Writes into a string's own storage as it is created: no intermediate array, no per-byte
    /// growth checks (three timestamps are written per request: log line, audit line, carrier stamp).
    private struct Cursor {
        let text: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func put(_ byte: UInt8) {
            text[count] = byte
            count += 1
        }

        mutating func put(_ ascii: StaticString) {
            ascii.withUTF8Buffer { for byte in $0 { put(byte) } }
        }

        /// `value` in decimal, zero-padded to `width` digits.
        mutating func digits(_ value: Int64, _ width: Int) {
            var rest = value
            var index = count + width - 1
            while index >= count {
                text[index] = UInt8(48 + rest % 10)
                rest /= 10
                index -= 1
            }
            count += width
        }
    }
}
