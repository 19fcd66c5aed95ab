extension UsageReport {
    static let columns = ["day", "appId", "provider", "operation", "calls", "billable", "nonBillable"]

    /// One header row, then one row per day, app, provider and operation; no total row, so the
    /// columns sum cleanly in a spreadsheet.
    public func csv() -> String {
        var text = Self.columns.joined(separator: ",") + "\n"
        for (key, counts) in rows {
            let fields = [key.day.description, key.appId, key.provider, key.operation, "\(counts.calls)", "\(counts.billable)", "\(counts.nonBillable)"]
            text += fields.map(Self.csvField).joined(separator: ",") + "\n"
        }
        return text
    }

    /// Aligned columns with a heading and a TOTAL row.
    public func table() -> String {
        let app = query.appId.map { ", app \($0)" } ?? ""
        var text = "Carrier calls \(query.from) to \(query.to), \(query.zone.label)\(app)\n"
        let header = ["DAY", "APP", "PROVIDER", "OPERATION", "CALLS", "BILLABLE", "NON-BILLABLE"]
        var lines = rows.map { key, counts in
            [key.day.description, key.appId, key.provider, key.operation, "\(counts.calls)", "\(counts.billable)", "\(counts.nonBillable)"]
        }
        lines.append(["TOTAL", "", "", "", "\(total.calls)", "\(total.billable)", "\(total.nonBillable)"])
        var widths = header.map(\.count)
        for line in lines {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return index >= 4 ? padding + cell : cell + padding  // numbers right-aligned
            }.joined(separator: "  ").replacing(/\s+$/, with: "")
        }
        text += render(header) + "\n"
        for line in lines { text += render(line) + "\n" }
        return text
    }

    /// RFC 4180 quoting when needed; a leading `=`, `+`, `-` or `@` is prefixed with `'` so a
    /// spreadsheet never runs a crafted value as a formula.
    static func csvField(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacing("\"", with: "\"\"") + "\""
    }
}
