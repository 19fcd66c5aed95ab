import PassgateTestSupport
import ProviderGeetest
import Testing

/// docs/geetest.md's result-code and providerFields tables say what the code does, row by row.
@Suite("docs/geetest.md")
struct GeetestDocsTests {
    @Test("every code in the table with the same Passgate code, retryable and action, and every code of the table in the docs")
    func tableMatchesCode() throws {
        #expect(try ProviderDocsPage(provider: "geetest").codeTableProblems(Geetest.codes, unknownSample: "99999") == [])
    }

    @Test("the providerFields table names the declared fields, required and single use as declared")
    func fieldsMatchDeclaration() throws {
        #expect(try ProviderDocsPage(provider: "geetest").fieldsTableProblems(GeetestProvider().providerFields) == [])
    }
}
