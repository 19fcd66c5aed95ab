@testable import ProviderCMCC
import PassgateCore
import Foundation
import Testing

/// docs/cmcc-result-codes.md is the code tables, written out: it must say what the code does.
@Suite("CMCC result-code documentation")
struct CMCCResultCodeDocsTests {
    static var path: String {
        var directory = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("docs/cmcc-result-codes.md").path
    }

    /// The document as the tables make it.
    static func rendered() -> String {
        var text = """
            # CMCC result codes and what Passgate answers

            Every code of China Mobile's two published server result-code tables, and the four that
            integrators report but the tables lack (marked *reported*), with the normalized error code
            Passgate answers, whether the same token may still succeed (`retryable`) and the `action` the
            backend should take. Generated from `Sources/ProviderCMCC/CMCC+LoginCodes.swift` and
            `CMCC+VerifyCodes.swift`; `CMCCResultCodeDocsTests` fails when this file and the code differ
            (`PASSGATE_WRITE_DOCS=1 swift test --filter CMCCResultCodeDocsTests` rewrites it).

            Many login-table rows belong to CMCC's other APIs (SMS login, accounts, SIP, SDK updates) and
            should never answer one-click login; they are `carrier_rejected` with `contact_provider`. A
            code in neither table is `carrier_error`, not retryable, `contact_provider`, raw code kept.


            """
        for (title, table) in [("Phone number (`loginTokenValidate`)", CMCC.loginCodes), ("Number verification (`tokenValidate`)", CMCC.verifyCodes)] {
            text += "## \(title)\n\n| CMCC code | meaning | Passgate code | retryable | action |\n|---|---|---|---|---|\n"
            for entry in table.sorted {
                let code = entry.error.map { "`\($0.rawValue)`" } ?? "success"
                let action = entry.error == nil ? "" : "`\(entry.action.rawValue)`"
                let source = entry.source == .reported ? " (*reported*)" : ""
                text += "| \(entry.code)\(source) | \(entry.meaning) | \(code) | \(entry.error == nil ? "" : entry.retryable ? "yes" : "no") | \(action) |\n"
            }
            text += "\n"
        }
        return text
    }

    @Test("docs/cmcc-result-codes.md lists every code of both tables exactly as the code classifies it")
    func docsMatchTables() throws {
        let expected = Self.rendered()
        if ProcessInfo.processInfo.environment["PASSGATE_WRITE_DOCS"] == "1" {
            try expected.write(toFile: Self.path, atomically: true, encoding: .utf8)
        }
        let actual = try String(contentsOfFile: Self.path, encoding: .utf8)
        #expect(actual == expected, "docs/cmcc-result-codes.md differs from the tables: PASSGATE_WRITE_DOCS=1 swift test --filter CMCCResultCodeDocsTests")
    }
}
