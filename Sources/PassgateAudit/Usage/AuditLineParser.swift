/// Reads lines exactly as `AuditRecord.jsonLine()` writes them (keys in order, strings without
/// escapes) several times faster than `JSONDecoder`; `nil` for anything else, which the caller
/// then hands to `JSONDecoder`, so a line edited by another tool still counts if it is valid.
struct AuditLineParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    static func parse(_ line: ArraySlice<UInt8>) -> AuditRecord? {
        line.withUnsafeBufferPointer { buffer in
            var parser = AuditLineParser(bytes: buffer)
            return parser.record()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func record() -> AuditRecord? {
        guard take(UInt8(ascii: "{")),
              let time = string("time", first: true).flatMap({ $0.flatMap(AuditTime.parseISO8601) }),
              let requestId = string("requestId") ?? nil, let client = string("client") ?? nil, let appId = string("appId") ?? nil,
              let provider = string("provider") ?? nil, let operation = string("operation") ?? nil, let msgid = string("msgid") ?? nil,
              let carrierTaskId = string("carrierTaskId"), let rawCode = string("rawCode"),
              let normalizedCode = string("normalizedCode") ?? nil, let billable = bool("billable"), let latencyMs = number("latencyMs"),
              let host = string("host") ?? nil, take(UInt8(ascii: "}")), index == bytes.count
        else { return nil }
        return AuditRecord(
            timeMilliseconds: time, requestId: requestId, client: client, appId: appId, provider: provider, operation: operation,
            msgid: msgid, carrierTaskId: carrierTaskId, rawCode: rawCode, normalizedCode: normalizedCode, billable: billable,
            latencyMs: latencyMs, host: host
        )
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// `,"name":` (or `"name":` first).
    private mutating func key(_ name: StaticString, first: Bool) -> Bool {
        (first || take(UInt8(ascii: ","))) && take(UInt8(ascii: "\"")) && take(name) && take(UInt8(ascii: "\"")) && take(UInt8(ascii: ":"))
    }

    /// `.some(nil)` for `null`, `nil` when the shape is not ours (escapes included).
    private mutating func string(_ name: StaticString, first: Bool = false) -> String?? {
        guard key(name, first: first) else { return nil }
        if take("null") { return .some(nil) }
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 else { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return .some(value)
    }

    private mutating func bool(_ name: StaticString) -> Bool? {
        guard key(name, first: false) else { return nil }
        if take("true") { return true }
        if take("false") { return false }
        return nil
    }

    private mutating func number(_ name: StaticString) -> Double? {
        guard key(name, first: false) else { return nil }
        let start = index
        while index < bytes.count, "-+.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }
}
