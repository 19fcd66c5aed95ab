@testable import PassgateCore
import Testing

@Suite("ProviderReply: what a carrier's reply is before it is parsed")
struct ProviderReplyTests {
    @Test("a Content-Type naming HTML in any case and position is HTML; JSON, text and short ones are not")
    func htmlContentTypes() {
        for html in ["text/html", "TEXT/HTML; charset=utf-8", "application/xhtml+xml", "html", "x-HtMl", " text/html "] {
            #expect(ProviderReply.mentionsHTML(html), "\(html)")
        }
        for other in ["application/json", "", "htm", "text/plain; charset=utf-8", "h-t-m-l", "text/htm l", "application/json; x=htm"] {
            #expect(!ProviderReply.mentionsHTML(other), "\(other)")
        }
    }

    @Test("an HTML page from the carrier is reported as such, whatever its status, and never parsed")
    func htmlReplyIsBadReply() {
        let page = Array("<html><body>502 Bad Gateway</body></html>".utf8)
        for (status, contentType) in [(200, "text/html"), (502, "Text/HTML"), (200, "application/octet-stream")] {
            #expect(throws: PassgateError.self) {
                _ = try ProviderReply.jsonObject(status: status, contentType: contentType, body: page, isAnswer: { _ in true })
            }
        }
        #expect(throws: PassgateError.self) {
            _ = try ProviderReply.jsonObject(status: 200, contentType: "text/html", body: Array(#"{"resultCode":"103000"}"#.utf8), isAnswer: { _ in true })
        }
        #expect((try? ProviderReply.jsonObject(status: 200, contentType: "application/json", body: Array(#"{"a":1}"#.utf8), isAnswer: { _ in true })) != nil)
    }
}
