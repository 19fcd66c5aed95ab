import HTTPTypes
import NIOCore
import Testing

@testable import EventLoopExecution

/// The answer's head as bytes, exactly: what NIO's response encoder wrote before, written straight
/// from `HTTPResponse`.
@Suite struct HTTP1ResponseHeadTests {
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    static func head(
        _ answer: HTTPResponse, bodyLength: Int = 0, server: String? = nil, connection: StaticString? = nil
    ) -> String {
        var buffer = ByteBuffer()
        HTTP1ResponseHead.write(
            answer, bodyLength: bodyLength, additions: .init(date: date, server: server, connection: connection), into: &buffer)
        return String(buffer: buffer)
    }

    @Test func anAnswerWithABodyGetsItsStatusLineFieldsDateAndLength() {
        let answer = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json", .cacheControl: "no-store"])
        #expect(Self.head(answer, bodyLength: 27, server: "passgate") == """
            HTTP/1.1 200 OK\r
            Content-Type: application/json\r
            Cache-Control: no-store\r
            Date: \(Self.date)\r
            Server: passgate\r
            Content-Length: 27\r
            \r

            """)
    }

    @Test func theAnswersOwnLengthIsKeptAndItsDateAndTransferEncodingAreNot() {
        // A HEAD answer names the length of the body it does not send.
        let answer = HTTPResponse(status: .ok, headerFields: [
            .contentLength: "5", .transferEncoding: "chunked", .date: "yesterday",
        ])
        #expect(Self.head(answer, bodyLength: 0) == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nDate: \(Self.date)\r\n\r\n")
    }

    @Test(arguments: [HTTPResponse.Status.noContent, .notModified, .continue])
    func answersWithoutABodyGetNoLength(status: HTTPResponse.Status) {
        let answer = HTTPResponse(status: status, headerFields: [.contentLength: "3"])
        let head = Self.head(answer, bodyLength: 3)
        #expect(!head.lowercased().contains("content-length"), "\(head)")
        #expect(head.hasPrefix("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"))
    }

    @Test func theChannelsConnectionAndServerReplaceTheAnswersOwn() {
        let answer = HTTPResponse(status: .notFound, headerFields: [.connection: "keep-alive", .server: "someone"])
        #expect(Self.head(answer, server: "passgate", connection: "close")
            == "HTTP/1.1 404 Not Found\r\nDate: \(Self.date)\r\nServer: passgate\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        // Without the channel's own, the answer's stay.
        #expect(Self.head(answer)
            == "HTTP/1.1 404 Not Found\r\nConnection: keep-alive\r\nServer: someone\r\nDate: \(Self.date)\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func aValueWithALineBreakCannotEndTheLine() {
        // Swift HTTP Types blanks the bytes that could: a header value cannot inject another field.
        let answer = HTTPResponse(status: .ok, headerFields: [HTTPField.Name("X-Note")!: "a\r\nSet-Cookie: b"])
        let head = Self.head(answer)
        #expect(!head.contains("\r\nSet-Cookie"), "\(head)")
        #expect(head.contains("X-Note: a  Set-Cookie: b\r\n"), "\(head)")
    }

    @Test func aStatusMadeFromItsCodeAloneGetsTheStandardReason() {
        #expect(Self.head(HTTPResponse(status: .init(code: 400))).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(Self.head(HTTPResponse(status: .init(code: 422))).hasPrefix("HTTP/1.1 422 Unprocessable Entity\r\n"))
        // A code with no standard reason: the status line ends after the code's space, as RFC 9112 allows.
        #expect(Self.head(HTTPResponse(status: .init(code: 599))).hasPrefix("HTTP/1.1 599 \r\n"))
    }

    @Test func aCustomStatusKeepsItsCodeAndReason() {
        let answer = HTTPResponse(status: .init(code: 599, reasonPhrase: "Carrier Gone"))
        #expect(Self.head(answer).hasPrefix("HTTP/1.1 599 Carrier Gone\r\n"))
    }
}
