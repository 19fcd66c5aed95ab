import PassgateTestSupport
import ProviderMobTech
import Testing

/// docs/mobtech.md's result-code table says what the code does, row by row.
@Suite("docs/mobtech.md")
struct MobTechDocsTests {
    @Test("every code in the table with the same Passgate code, retryable and action, and every code of the table in the docs")
    func tableMatchesCode() throws {
        #expect(try ProviderDocsPage(provider: "mobtech").codeTableProblems(MobTech.codes, unknownSample: "5999999") == [])
    }
}
