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
        var text = [UInt8]()
        text.reserveCapacity(24)
        let iso = style == .iso8601 || style == .iso8601Seconds
        append(&text, year, width: 4)
        if iso { text.append(UInt8(ascii: "-")) }
        append(&text, month, width: 2)
        if iso { text.append(UInt8(ascii: "-")) }
        append(&text, day, width: 2)
        if style != .digits17 { text.append(UInt8(ascii: "T")) }
        append(&text, msOfDay / 3_600_000, width: 2)
        if iso { text.append(UInt8(ascii: ":")) }
        append(&text, msOfDay / 60_000 % 60, width: 2)
        if iso { text.append(UInt8(ascii: ":")) }
        append(&text, msOfDay / 1000 % 60, width: 2)
        if style == .iso8601 { text.append(UInt8(ascii: ".")) }
        if style == .iso8601 || style == .digits17 { append(&text, msOfDay % 1000, width: 3) }
        if style != .digits17 { text.append(UInt8(ascii: "Z")) }
        return String(decoding: text, as: UTF8.self)
    }

    private static func append(_ text: inout [UInt8], _ value: Int64, width: Int) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            text.append(UInt8(48 + (value / divisor) % 10))
            divisor /= 10
        }
    }
}
