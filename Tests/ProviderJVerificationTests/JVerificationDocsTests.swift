import Foundation
import PassgateCore
import ProviderJVerification
import Testing

/// docs/jverification.md's result-code table says what the code does, row by row.
@Suite("docs/jverification.md")
struct JVerificationDocsTests {
    static func documentRows() throws -> [[String]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/jverification.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Result codes").dropFirst().first?.components(separatedBy: "\n## ").first)
        return section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| code") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test("every code in the table, and every code in the docs, with the same Passgate code, retryable and action")
    func tableMatchesCode() throws {
        var documented: Set<String> = []
        for row in try Self.documentRows() {
            let codes = row[0].replacingOccurrences(of: "(*clients*)", with: "").split(whereSeparator: { " /,".contains($0) }).map(String.init)
                .filter { $0.allSatisfy(\.isNumber) && !$0.isEmpty }
            guard !row[0].hasPrefix("anything else") else {
                let unknown = JVerification.codes["2000"]
                #expect(row[2] == "`\(unknown.error!.rawValue)`" && row[3] == "no" && row[4] == "`\(unknown.action.rawValue)`", "\(row)")
                continue
            }
            for code in codes {
                documented.insert(code)
                let entry = try #require(JVerification.codes.entries[code], "docs list \(code), the code does not")
                if let error = entry.error {
                    #expect(row[2] == "`\(error.rawValue)`", "\(code): \(row)")
                    #expect(row[3] == (entry.retryable ? "yes" : "no"), "\(code): \(row)")
                    #expect(row[4] == "`\(entry.action.rawValue)`", "\(code): \(row)")
                } else {
                    #expect(row[2] == "success", "\(code): \(row)")
                }
                #expect(row[0].contains("(*clients*)") == (entry.source == .implementation), "\(code): \(row)")
            }
        }
        #expect(documented == Set(JVerification.codes.entries.keys))
    }
}
