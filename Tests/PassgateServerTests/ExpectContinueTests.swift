import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport
import Testing

/// A backend whose HTTP client sends `Expect: 100-continue` (curl 7.88 does for bodies over 1 MiB) holds
/// its body back until the API listener asks for it: asked at once, it is not delayed; a body
/// declared over `server.maxBodyBytes` is refused before it is sent.
@Suite("REST API: Expect: 100-continue on the wire")
struct ExpectContinueTests {
    /// The wire answer read as the other API tests read answers.
    static func api(_ answer: WireResponse) -> APIAnswer {
        APIAnswer(status: answer.status, body: Array(answer.body.utf8), headers: answer.headers.map { ($0.key, $0.value) })
    }

    static func head(length: Int) -> String {
        "POST /v1/phone-number HTTP/1.1\r\nHost: passgate\r\nAuthorization: Bearer \(TestConfiguration.apiKey)\r\n"
            + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: \(length)\r\n\r\n"
    }

    @Test("a request that expects 100 Continue is asked for its body, and the body is routed as usual")
    func askedForTheBody() async throws {
        try await withRunningPassgate { passgate in
            let socket = try LoopbackSocket(port: passgate.endpoints.apiPort)
            let body = #"{"appId":"300011111111"}"#
            try socket.send(Self.head(length: body.utf8.count))
            #expect(try await socket.readResponse().status == 100)
            try socket.send(body)
            let answer = Self.api(try await socket.readResponse())
            #expect(answer.status == 400 && answer.errorCode == "invalid_request", "\(answer.body)")
            #expect(answer.error["field"] as? String == "token")
        }
    }

    @Test("a body declared over server.maxBodyBytes gets 413 payload_too_large without being sent, and the connection closes")
    func refusedBeforeItIsSent() async throws {
        try await withRunningPassgate { passgate in
            let socket = try LoopbackSocket(port: passgate.endpoints.apiPort)
            try socket.send(Self.head(length: 4097))  // the test configuration's limit is 4096
            let answer = Self.api(try await socket.readResponse())
            #expect(answer.status == 413 && answer.errorCode == "payload_too_large", "\(answer.body)")
            #expect(answer.header("connection") == "close")
            #expect(try await socket.readsEndOfFile())
        }
    }
}
