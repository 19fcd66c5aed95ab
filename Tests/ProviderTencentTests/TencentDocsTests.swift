import Foundation
import PassgateCore
import ProviderTencent
import Testing

/// docs/tencent.md's result-code table says what the code does, row by row.
@Suite("docs/tencent.md")
struct TencentDocsTests {
    @Test("the table's rows: 0 is success, anything else carrier_error, not retryable, contact_provider; and the code knows no other")
    func tableMatchesCode() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/tencent.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Result codes").dropFirst().first?.components(separatedBy: "\n## ").first)
        var rows = 0
        for line in section.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| code") {
            let row = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let entry = row[0].hasPrefix("anything else") ? Tencent.codes["1001"] : Tencent.codes[row[0].replacingOccurrences(of: "`", with: "")]
            if let error = entry.error {
                #expect(row[2] == "`\(error.rawValue)`" && row[3] == (entry.retryable ? "yes" : "no") && row[4] == "`\(entry.action.rawValue)`", "\(row)")
            } else {
                #expect(row[2] == "success", "\(row)")
            }
            rows += 1
        }
        #expect(rows == 2 && Set(Tencent.codes.entries.keys) == ["0"])
    }
}
