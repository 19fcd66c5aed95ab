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
    }

    /// `milliseconds` since the Unix epoch, shifted by `offsetMilliseconds` (Beijing: +8 h), in `style`.
    public static func string(milliseconds: Int64, offsetMilliseconds: Int64 = 0, style: Style) -> String {
        let local = milliseconds + offsetMilliseconds
        let days = CivilDate.floorDivide(local, 86_400_000)
        let msOfDay = local - days * 86_400_000
        let (year, month, day) = CivilDate.civil(fromDays: days)
        let iso = style == .iso8601 || style == .iso8601Seconds
        // Written in place into the string's own storage: no intermediate array, no per-byte
        // growth checks (three of these run per request: log line, audit line, carrier stamp).
        return String(unsafeUninitializedCapacity: 24) { text in
            var count = 0
            func put(_ byte: UInt8) {
                text[count] = byte
                count += 1
            }
            func digits(_ value: Int64, _ width: Int) {
                var rest = value
                var index = count + width - 1
                while index >= count {
                    text[index] = UInt8(48 + rest % 10)
                    rest /= 10
                    index -= 1
                }
                count += width
            }
            digits(year, 4)
            if iso { put(UInt8(ascii: "-")) }
            digits(month, 2)
            if iso { put(UInt8(ascii: "-")) }
            digits(day, 2)
            if style != .digits17 { put(UInt8(ascii: "T")) }
            digits(msOfDay / 3_600_000, 2)
            if iso { put(UInt8(ascii: ":")) }
            digits(msOfDay / 60_000 % 60, 2)
            if iso { put(UInt8(ascii: ":")) }
            digits(msOfDay / 1000 % 60, 2)
            if style == .iso8601 { put(UInt8(ascii: ".")) }
            if style == .iso8601 || style == .digits17 { digits(msOfDay % 1000, 3) }
            if style != .digits17 { put(UInt8(ascii: "Z")) }
            return count
        }
    }
}
