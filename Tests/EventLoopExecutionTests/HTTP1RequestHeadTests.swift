import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Testing

@testable import EventLoopExecution

/// The request the channel routes is the one NIO's conversion makes, for every shape of head.
@Suite struct HTTP1RequestHeadTests {
    static func head(_ method: HTTPMethod, _ uri: String, _ headers: [(String, String)]) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: HTTPHeaders(headers))
    }

    static let heads: [HTTPRequestHead] = [
        head(.POST, "/v1/phone-number", [
            ("Host", "localhost:8080"), ("Authorization", "Bearer k"), ("Content-Type", "application/json"),
            ("Content-Length", "61"), ("X-Request-Id", "abc"),
        ]),
        head(.GET, "/healthz?verbose=1", [("host", "a"), ("HOST", "b"), ("accept", "*/*"), ("User-Agent", "curl/7.88")]),
        head(.POST, "/", [("CONTENT-type", "text/plain"), ("x-custom", "1"), ("X-Custom", "2"), ("Expect", "100-continue")]),
        head(.GET, "/no-host", [("Connection", "close"), ("Accept-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]),
        head(.GET, "/cookies", [("Cookie", "a=1; b=2"), ("Hostname", "not the host"), ("hos", "short")]),
        head(.GET, "/invalid-name", [("bad name", "dropped"), ("Good", "kept"), ("", "empty name")]),
        head(.GET, "/value", [("X-Request-Id", "with\u{7F}del and  spaces"), ("Host", "")]),
        head(.GET, "//double/slash", [("Host", "h")]),
        head(.GET, "http://example.com/absolute?q=1", [("Host", "example.com")]),
        head(.OPTIONS, "*", [("Host", "h")]),
        head(.RAW(value: "PURGE"), "/raw", []),
        head(.PATCH, "/patch", [("Content-Length", "0")]),
    ]

    @Test(arguments: heads)
    func makesTheRequestNIOsConversionMakes(_ head: HTTPRequestHead) throws {
        let expected = try HTTPRequest(head, secure: false, splitCookie: false)
        let request = try HTTP1RequestHead.request(head)
        #expect(request == expected)
        #expect(request.authority == expected.authority)
        #expect(request.path == expected.path)
        #expect(request.headerFields.map(\.value) == expected.headerFields.map(\.value))
    }

    @Test func anOriginFormTargetIsThePathAsItCameAndTheFirstHostIsTheAuthority() throws {
        let request = try HTTP1RequestHead.request(Self.head(.GET, "/a/%2F/b?x=1&y", [("hOsT", "one"), ("Host", "two")]))
        #expect(request.path == "/a/%2F/b?x=1&y")
        #expect(request.authority == "one")
        #expect(request.scheme == "http")
        #expect(request.headerFields[values: HTTPField.Name("Host")!] == ["two"])
    }

    @Test func aNameOutsideTheKnownOnesKeepsItsSpellingAndAKnownOneIsFoundInAnyCase() throws {
        let request = try HTTP1RequestHead.request(Self.head(.POST, "/", [("X-Custom-Thing", "1"), ("cOnTeNt-TyPe", "a/b")]))
        #expect(request.headerFields.map(\.name.rawName) == ["X-Custom-Thing", "Content-Type"])
        #expect(request.headerFields[.contentType] == "a/b")
    }

    @Test func aMethodHTTPTypesCannotHoldFailsAsNIOsConversionFails() {
        let head = Self.head(.RAW(value: "BAD METHOD"), "/", [])
        #expect(throws: HTTP1TypeConversionError.invalidMethod) { try HTTP1RequestHead.request(head) }
    }

    @Test(arguments: [
        "Accept", "EXPECT", "user-agent", "Connection", "Content-Type", "x-Request-ID", "Authorization",
        "content-length", "Accept-Encoding", "Transfer-Encoding",
    ])
    func eachKnownNameIsTheNameHTTPTypesMakesOfIt(_ spelling: String) throws {
        let known = try #require(HTTP1RequestHead.knownName(spelling))
        #expect(known == HTTPField.Name(spelling))
    }

    @Test(arguments: ["Accepts", "Content-Typo", "x-request-ix", "", "Authorisation", "content_length"])
    func aNameOfAKnownLengthThatIsNotKnownIsLeftToHTTPTypes(_ spelling: String) {
        #expect(HTTP1RequestHead.knownName(spelling) == nil)
    }
}

extension HTTPRequestHead: @retroactive CustomTestStringConvertible {
    public var testDescription: String { "\(method) \(uri) \(headers.map { "\($0.name): \($0.value)" })" }
}
