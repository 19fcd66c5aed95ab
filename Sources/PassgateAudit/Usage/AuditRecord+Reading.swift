import PassgateCore

extension AuditRecord {
    /// Why a line is not an audit record, for the usage report.
    struct LineProblem: Error, Equatable {
        let reason: String
    }

    /// A record from one audit line, read with the one JSON reader (`ParsedJSON`): the writer's
    /// own lines, and any valid rewrite of them (other key order, escapes, spaces).
    static func read(_ line: ArraySlice<UInt8>) -> Result<AuditRecord, LineProblem> {
        guard let parsed = try? ParsedJSON.parse(line), case .object = parsed else { return .failure(LineProblem(reason: "invalid JSON")) }
        func text(_ key: String) throws(LineProblem) -> String {
            guard let value = parsed[key] else { throw LineProblem(reason: "missing '\(key)'") }
            guard let text = value.stringValue else { throw LineProblem(reason: "wrong type for '\(key)'") }
            return text
        }
        func optionalText(_ key: String) throws(LineProblem) -> String? {
            guard let value = parsed[key], value != .null else { return nil }
            guard let text = value.stringValue else { throw LineProblem(reason: "wrong type for '\(key)'") }
            return text
        }
        do throws(LineProblem) {
            // In the line's own key order, so the first problem named is the first in the line.
            guard let time = AuditTime.parseISO8601(try text("time")) else { throw LineProblem(reason: "bad 'time'") }
            let requestId = try text("requestId"), client = try text("client"), appId = try text("appId")
            let provider = try text("provider"), operation = try text("operation"), msgid = try text("msgid")
            let carrierTaskId = try optionalText("carrierTaskId"), rawCode = try optionalText("rawCode")
            let normalizedCode = try text("normalizedCode")
            guard case .bool(let billable)? = parsed["billable"] else {
                throw LineProblem(reason: parsed["billable"] == nil ? "missing 'billable'" : "wrong type for 'billable'")
            }
            guard case .number(let number)? = parsed["latencyMs"], let latency = Double(number) else {
                throw LineProblem(reason: parsed["latencyMs"] == nil ? "missing 'latencyMs'" : "wrong type for 'latencyMs'")
            }
            guard let record = AuditRecord(
                timeMilliseconds: time, requestId: requestId, client: client, appId: appId, provider: provider, operation: operation,
                msgid: msgid, carrierTaskId: carrierTaskId, rawCode: rawCode, normalizedCode: normalizedCode, billable: billable,
                latencyMs: latency, host: try text("host"),
                // Absent (not only null) in lines written before tracing existed.
                traceId: try optionalText("traceId")
            ) else { throw LineProblem(reason: "bad 'operation'") }
            return .success(record)
        } catch {
            return .failure(error)
        }
    }
}
