import Foundation
import PassgateCore

/// A provider's docs page (`docs/<id>.md`) as its docs tests read it: the tables that must say
/// what the code does. Each check returns its mismatches, one line each, so a test expects `[]`
/// and a failure names every row at fault.
public struct ProviderDocsPage: Sendable {
    public let text: String

    /// `docs/<id>.md` of this package.
    public init(provider id: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        text = try String(contentsOf: root.appendingPathComponent("docs/\(id).md"), encoding: .utf8)
    }

    /// The body rows of the table under `## <section>`, cells trimmed (header and rule left out).
    public func rows(_ section: String) -> [[String]] {
        guard let body = text.components(separatedBy: "\n## \(section)").dropFirst().first?.components(separatedBy: "\n## ").first else { return [] }
        let lines = body.split(separator: "\n").filter { $0.hasPrefix("|") }.dropFirst(2)
        return lines.map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// The `Result codes` table against `table`: each row's backticked codes with their Passgate
    /// code, retryable and action (`anything else` as `unknownSample`), and every code of the
    /// table in the page.
    public func codeTableProblems(_ table: ProviderResultCodeTable, unknownSample: String) -> [String] {
        var problems: [String] = [], documented: Set<String> = []
        let rows = rows("Result codes")
        if rows.isEmpty { return ["no Result codes table"] }
        for row in rows where row.count >= 5 {
            let codes = row[0].components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            documented.formUnion(codes)
            for entry in row[0].hasPrefix("anything else") ? [table[unknownSample]] : codes.map({ table[$0] }) {
                let expected = entry.error.map { ["`\($0.rawValue)`", entry.retryable ? "yes" : "no", "`\(entry.action.rawValue)`"] } ?? ["success"]
                if Array(row[2..<(2 + expected.count)]) != expected { problems.append("\(entry.code): the page says \(row[2...4]), the code \(expected)") }
            }
        }
        let missing = Set(table.entries.keys).subtracting(documented), extra = documented.subtracting(table.entries.keys)
        if !missing.isEmpty { problems.append("not in the page: \(missing.sorted())") }
        if !extra.isEmpty { problems.append("not in the code: \(extra.sorted())") }
        return problems
    }

    /// The `providerFields` table (key, required, format, single use, …) against `fields`, in order.
    public func fieldsTableProblems(_ fields: [ProviderField]) -> [String] {
        let rows = rows("providerFields")
        guard rows.map({ $0.first ?? "" }) == fields.map({ "`\($0.name)`" }) else {
            return ["the page lists \(rows.map { $0.first ?? "" }), the code \(fields.map(\.name))"]
        }
        return zip(rows, fields).compactMap { row, field in
            row.count >= 4 && row[1] == (field.required ? "yes" : "no") && row[3] == (field.singleUse ? "yes" : "no")
                ? nil : "\(field.name): the page says \(row), the code required \(field.required), single use \(field.singleUse)"
        }
    }
}
