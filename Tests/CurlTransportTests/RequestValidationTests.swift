@testable import CurlTransport
import Testing

@Suite("Request validation before curl sees a request")
struct RequestValidationTests {
    typealias Request = CurlHTTPClient.Request

    @Test("a plain request passes, bytes beyond ASCII in header values included")
    func plainRequestPasses() {
        let request = Request(method: .post, url: "https://example.com/a?b=c", headers: [("Content-Type", "application/json"), ("X-Name", "手机号")])
        #expect(request.validationProblem == nil)
    }

    @Test("each forbidden byte is caught where it is, and the answer names the part, never a header's value", arguments: [
        (Request(url: "https://example.com/a b"), "the URL contains"),
        (Request(url: "https://example.com/\0"), "the URL contains"),
        (Request(url: "https://example.com/\r\nX: 1"), "the URL contains"),
        (Request(method: .init(rawValue: ""), url: "https://example.com/"), "is not a token"),
        (Request(method: .init(rawValue: "GE T"), url: "https://example.com/"), "is not a token"),
        (Request(method: .init(rawValue: "GÉT"), url: "https://example.com/"), "is not a token"),
        (Request(url: "https://example.com/", headers: [("X:Y", "v")]), "header name"),
        (Request(url: "https://example.com/", headers: [("", "v")]), "header name"),
        (Request(url: "https://example.com/", headers: [("X-Secret", "s3cr3t\0value")]), "value of header 'X-Secret'"),
        (Request(url: "https://example.com/", headers: [("X-Secret", "s3cr3t\nvalue")]), "value of header 'X-Secret'"),
    ])
    func forbiddenBytes(request: Request, expected: String) {
        let problem = request.validationProblem
        #expect(problem?.contains(expected) == true, "\(problem ?? "nil")")
        #expect(problem?.contains("s3cr3t") != true)
    }
}
