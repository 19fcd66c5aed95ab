import Foundation
import PassgateCore
import ProviderMobTech
import Testing

/// docs/mobtech.md's result-code table says what the code does, row by row.
@Suite("docs/mobtech.md")
struct MobTechDocsTests {
    @Test("every code in the table with the same Passgate code, retryable and action, and every code of the table in the docs")
    func tableMatchesCode() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/mobtech.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Result codes").dropFirst().first?.components(separatedBy: "\n## ").first)
        var documented: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| code") {
            let row = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let codes = row[0].components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            let entries = row[0].hasPrefix("anything else") ? [MobTech.codes["5999999"]] : codes.map { MobTech.codes[$0] }
            documented.formUnion(codes)
            for entry in entries {
                if let error = entry.error {
                    #expect(row[2] == "`\(error.rawValue)`" && row[3] == (entry.retryable ? "yes" : "no") && row[4] == "`\(entry.action.rawValue)`", "\(entry.code): \(row)")
                } else {
                    #expect(row[2] == "success", "\(row)")
                }
            }
        }
        #expect(documented == Set(MobTech.codes.entries.keys))
    }
}
