import PassgateCore
import Foundation
import Logging

/// One JSON log line, written by the one JSON writer (`JSONObjectWriter`) with swift-log's
/// metadata values encoded in place. Every request writes a log line, so nothing here goes
/// through Foundation (JSONSerialization's sorted keys and Date formatting were half of
/// Passgate's CPU time per request once).
struct JSONLogLine {
    private var writer = JSONObjectWriter(capacity: 512)

    /// A `"key":"value"` member.
    mutating func add(_ key: String, _ value: String) {
        writer.add(key, value)
    }

    /// A `"key":<metadata value>` member; nested dictionaries keep their keys sorted.
    mutating func add(_ key: String, _ value: Logger.Metadata.Value) {
        switch value {
        case .string(let text): writer.add(key, text)
        case .stringConvertible(let convertible): writer.add(key, convertible.description)
        case .array, .dictionary:
            var json: [UInt8] = []
            Self.append(value, to: &json)
            writer.add(key, json: json)
        }
    }

    /// The finished line (without a newline).
    mutating func finish() -> String {
        String(decoding: writer.finish(), as: UTF8.self)
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
            var object = JSONObjectWriter(capacity: 64)
            for key in values.keys.sorted() {
                var nested: [UInt8] = []
                append(values[key]!, to: &nested)
                object.add(key, json: nested)
            }
            bytes.append(contentsOf: object.finish())
        }
    }
}

/// `2025-01-31T23:59:59.123Z` (UTC, milliseconds), computed from the epoch without Foundation
/// formatters, which cost more than the rest of a log line.
enum LogTimestamp {
    static func now(_ clock: any PassgateClock) -> String {
        string(milliseconds: clock.nowMilliseconds())
    }

    static func string(milliseconds: Int64) -> String {
        Timestamp.string(milliseconds: milliseconds, style: .iso8601)
    }
}
