import PassgateCore
import Foundation

/// Decoding (for `passgate usage` and tools) and a `Codable` encoding with the ISO-8601 time.
/// The log itself is written by `jsonLine()`, whose key order is fixed; `JSONEncoder` does not
/// promise one.
extension AuditRecord: Codable {
    enum CodingKeys: String, CodingKey {
        case time, requestId, client, appId, provider, operation, msgid, carrierTaskId, rawCode, normalizedCode, billable, latencyMs, host, traceId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .time)
        guard let milliseconds = AuditTime.parseISO8601(text) else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: container, debugDescription: "time '\(text.prefix(40))' is not ISO-8601 UTC")
        }
        let operationText = try container.decode(String.self, forKey: .operation)
        guard let operation = CarrierCall.Operation(rawValue: operationText) else {
            throw DecodingError.dataCorruptedError(forKey: .operation, in: container, debugDescription: "operation '\(operationText.prefix(40))' is unknown")
        }
        self.init(timeMilliseconds: milliseconds, requestId: try container.decode(String.self, forKey: .requestId),
                  client: try container.decode(String.self, forKey: .client), appId: try container.decode(String.self, forKey: .appId),
                  call: CarrierCall(
                      provider: try container.decode(String.self, forKey: .provider), operation: operation,
                      msgid: try container.decode(String.self, forKey: .msgid), taskId: try container.decodeIfPresent(String.self, forKey: .carrierTaskId),
                      rawCode: try container.decodeIfPresent(String.self, forKey: .rawCode),
                      normalizedCode: try container.decode(String.self, forKey: .normalizedCode),
                      billable: try container.decode(Bool.self, forKey: .billable), latencyMs: try container.decode(Double.self, forKey: .latencyMs),
                      host: try container.decode(String.self, forKey: .host)),
                  // Absent from lines written before tracing existed.
                  traceId: try container.decodeIfPresent(String.self, forKey: .traceId))
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
        try container.encode(traceId, forKey: .traceId)
    }
}

extension AuditRecord {
    /// The record as one line of JSON ending in `\n`, keys in `AuditRecord.keys` order.
    public func jsonLine() -> [UInt8] {
        var line = JSONObjectWriter(capacity: 450)
        line.add("time", AuditTime.iso8601(milliseconds: timeMilliseconds))
        line.add("requestId", requestId)
        line.add("client", client)
        line.add("appId", appId)
        line.add("provider", provider)
        line.add("operation", operation)
        line.add("msgid", msgid)
        line.add("carrierTaskId", orNull: carrierTaskId)
        line.add("rawCode", orNull: rawCode)
        line.add("normalizedCode", normalizedCode)
        line.add("billable", billable)
        line.add("latencyMs", decimal: latencyMs)
        line.add("host", host)
        line.add("traceId", orNull: traceId)
        var bytes = line.finish()
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
