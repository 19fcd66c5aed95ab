import PassgateCore
import Testing

@Suite("PercentEncoding")
struct PercentEncodingTests {
    @Test("a form body reads back what encode wrote, in order: + as a space, %XX as its byte, UTF-8 included")
    func formFieldsRoundTrip() throws {
        let fields = [("b", "x y"), ("a", "1&2=3"), ("c", "号码~*")]
        let body = fields.map { PercentEncoding.encode($0.0, spaceAsPlus: true) + "=" + PercentEncoding.encode($0.1, spaceAsPlus: true) }.joined(separator: "&")
        let read = try #require(PercentEncoding.formFields(Array(body.utf8)))
        #expect(read.map(\.name) == ["b", "a", "c"] && read.map(\.value) == ["x y", "1&2=3", "号码~*"])
        #expect(PercentEncoding.formFields(Array("a=&b".utf8)).map { $0.map(\.value) } == ["", ""])
    }

    @Test("a malformed escape or bytes that are not UTF-8 give nil, not a guess", arguments: ["a=%4", "a=%zz", "a=%", "a=%FF"])
    func malformed(body: String) {
        #expect(PercentEncoding.formFields(Array(body.utf8)) == nil)
    }
}
