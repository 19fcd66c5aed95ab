import PassgateCore
import Foundation
import Logging

/// Builds one JSON log line straight into UTF-8 bytes.
///
/// Every request writes two log lines, so this is on the hot path: `JSONSerialization` with
/// sorted keys compared every key through ICU collation with a freshly created locale, and
/// `Date.formatted` went through Foundation's format styles; together they were half of
/// Passgate's CPU time per request (bench/PROFILE.md). Here: no Foundation objects, no bridging.
struct JSONLogLine {
    private(set) var bytes: [UInt8] = []
    private var first = true

    init() {
        bytes.reserveCapacity(512)
        bytes.append(UInt8(ascii: "{"))
    }

    /// A `"key":"value"` member.
    mutating func add(_ key: String, _ value: String) {
        separator()
        JSONText.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        JSONText.appendQuoted(value, to: &bytes)
    }

    /// A `"key":<metadata value>` member; nested dictionaries keep their keys sorted.
    mutating func add(_ key: String, _ value: Logger.Metadata.Value) {
        separator()
        JSONText.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.append(value, to: &bytes)
    }

    /// The finished line (without a newline).
    mutating func finish() -> String {
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func separator() {
        if first { first = false } else { bytes.append(UInt8(ascii: ",")) }
    }

    private static func append(_ value: Logger.Metadata.Value, to bytes: inout [UInt8]) {
        switch value {
        case .string(let text):
            JSONText.appendQuoted(text, to: &bytes)
        case .stringConvertible(let convertible):
            JSONText.appendQuoted(convertible.description, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .dictionary(let values):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in values.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                append(values[key]!, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

/// `2025-01-31T23:59:59.123Z` (UTC, milliseconds), computed from the epoch without Foundation
/// formatters, which cost more than the rest of a log line.
enum LogTimestamp {
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return string(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }

    static func string(milliseconds: Int64) -> String {
        let days = CivilDate.floorDivide(milliseconds, 86_400_000)
        let msOfDay = milliseconds - days * 86_400_000
        let (year, month, day) = CivilDate.civil(fromDays: days)

        var digits: [UInt8] = []
        digits.reserveCapacity(24)
        func put(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                digits.append(UInt8(48 + rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        put(year, 4)
        digits.append(UInt8(ascii: "-"))
        put(month, 2)
        digits.append(UInt8(ascii: "-"))
        put(day, 2)
        digits.append(UInt8(ascii: "T"))
        put(msOfDay / 3_600_000, 2)
        digits.append(UInt8(ascii: ":"))
        put(msOfDay / 60_000 % 60, 2)
        digits.append(UInt8(ascii: ":"))
        put(msOfDay / 1000 % 60, 2)
        digits.append(UInt8(ascii: "."))
        put(msOfDay % 1000, 3)
        digits.append(UInt8(ascii: "Z"))
        return String(decoding: digits, as: UTF8.self)
    }
}
