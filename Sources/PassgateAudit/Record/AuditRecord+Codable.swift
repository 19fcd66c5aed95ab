import PassgateCore
import Foundation

/// Decoding (for `passgate usage` and tools) and a `Codable` encoding with the ISO-8601 time.
/// The log itself is written by `jsonLine()`, whose key order is fixed; `JSONEncoder` does not
/// promise one.
extension AuditRecord: Codable {
    enum CodingKeys: String, CodingKey {
        case time, requestId, client, appId, provider, operation, msgid, carrierTaskId, rawCode, normalizedCode, billable, latencyMs, host
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .time)
        guard let milliseconds = AuditTime.parseISO8601(text) else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: container, debugDescription: "time '\(text.prefix(40))' is not ISO-8601 UTC")
        }
        self.init(
            timeMilliseconds: milliseconds,
            requestId: try container.decode(String.self, forKey: .requestId),
            client: try container.decode(String.self, forKey: .client),
            appId: try container.decode(String.self, forKey: .appId),
            provider: try container.decode(String.self, forKey: .provider),
            operation: try container.decode(String.self, forKey: .operation),
            msgid: try container.decode(String.self, forKey: .msgid),
            carrierTaskId: try container.decodeIfPresent(String.self, forKey: .carrierTaskId),
            rawCode: try container.decodeIfPresent(String.self, forKey: .rawCode),
            normalizedCode: try container.decode(String.self, forKey: .normalizedCode),
            billable: try container.decode(Bool.self, forKey: .billable),
            latencyMs: try container.decode(Double.self, forKey: .latencyMs),
            host: try container.decode(String.self, forKey: .host)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(AuditTime.iso8601(milliseconds: timeMilliseconds), forKey: .time)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(client, forKey: .client)
        try container.encode(appId, forKey: .appId)
        try container.encode(provider, forKey: .provider)
        try container.encode(operation, forKey: .operation)
        try container.encode(msgid, forKey: .msgid)
        try container.encode(carrierTaskId, forKey: .carrierTaskId)
        try container.encode(rawCode, forKey: .rawCode)
        try container.encode(normalizedCode, forKey: .normalizedCode)
        try container.encode(billable, forKey: .billable)
        try container.encode(latencyMs, forKey: .latencyMs)
        try container.encode(host, forKey: .host)
    }
}

extension AuditRecord {
    /// The record as one line of JSON ending in `\n`, keys in `AuditRecord.keys` order.
    public func jsonLine() -> [UInt8] {
        var line = JSONLine()
        line.string("time", AuditTime.iso8601(milliseconds: timeMilliseconds), first: true)
        line.string("requestId", requestId)
        line.string("client", client)
        line.string("appId", appId)
        line.string("provider", provider)
        line.string("operation", operation)
        line.string("msgid", msgid)
        line.string("carrierTaskId", carrierTaskId)
        line.string("rawCode", rawCode)
        line.string("normalizedCode", normalizedCode)
        line.raw("billable", billable ? "true" : "false")
        line.raw("latencyMs", JSONLine.number(latencyMs))
        line.string("host", host)
        return line.finish()
    }
}

/// Builds the fixed-shape audit line; the request path calls it, so it avoids per-byte work
/// where it can.
struct JSONLine {
    private(set) var bytes: [UInt8]

    init() {
        bytes = []
        bytes.reserveCapacity(400)  // once: from a one-byte literal this was a second allocation
        bytes.append(UInt8(ascii: "{"))
    }

    mutating func key(_ name: StaticString, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ name: StaticString, _ value: String?, first: Bool = false) {
        key(name, first: first)
        guard var value else { return bytes.append(contentsOf: "null".utf8) }
        value.withUTF8 { JSONText.appendQuoted($0, to: &bytes) }
    }

    mutating func raw(_ name: StaticString, _ text: String) {
        key(name, first: false)
        bytes.append(contentsOf: text.utf8)
    }

    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Milliseconds rounded to microseconds; non-finite values (never expected) as 0.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let micros = (value * 1000).rounded()
        guard abs(micros) < 1e15 else { return String(value.rounded()) }
        let whole = Int64(micros)
        let fraction = abs(whole % 1000)
        guard fraction != 0 else { return String(whole / 1000) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole < 0 && whole / 1000 == 0 ? "-" : "")\(whole / 1000).\(digits)"
    }
}
