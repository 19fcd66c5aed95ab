import CurlTransport
import Testing

@Suite("Requests and responses")
struct RequestResponseTests {
    @Test("GET returns the status, headers and body the server sent")
    func getReturnsResponse() async throws {
        try await withServerAndClient { server, client in
            let response = try await client.send(.init(url: server.url("/status/200")))
            #expect(response.status == 200)
            #expect(response.bodyText == "status 200")
            #expect(response.header("content-length") == "10")
            #expect(response.httpVersion == .http1_1)
            #expect(!response.connectionReused)
            #expect(response.totalTime > .zero)
        }
    }

    @Test("POST sends a JSON body and custom headers unchanged")
    func postSendsJSONAndHeaders() async throws {
        let json = #"{"appId":"300011111111","token":"STsid0000001","msgid":"ä✓"}"#
        try await withServerAndClient { server, client in
            let response = try await client.send(
                .init(
                    method: .post, url: server.url("/echo"),
                    headers: [("Content-Type", "application/json; charset=utf-8"), ("X-Test", "one two")],
                    body: Array(json.utf8)))
            #expect(response.status == 200)
            #expect(response.header("X-Echo-Method") == "POST")
            #expect(response.header("X-Echo-Content-Type") == "application/json; charset=utf-8")
            #expect(response.header("X-Echo-Test") == "one two")
            #expect(response.bodyText == json)
        }
    }

    @Test("PUT with a body and HEAD without one use the requested method")
    func putAndHead() async throws {
        try await withServerAndClient { server, client in
            let put = try await client.send(.init(method: .put, url: server.url("/echo"), body: Array("x=1".utf8)))
            #expect(put.header("X-Echo-Method") == "PUT")
            #expect(put.bodyText == "x=1")
            let head = try await client.send(.init(method: .head, url: server.url("/status/200")))
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }

    @Test("error statuses are responses, not transport errors", arguments: [200, 404, 500, 503])
    func statusCodes(status: Int) async throws {
        try await withServerAndClient { server, client in
            let response = try await client.send(.init(url: server.url("/status/\(status)")))
            #expect(response.status == status)
            #expect(response.bodyText == "status \(status)")
        }
    }

    @Test("a 300 KiB binary body arrives byte for byte, with Content-Length and chunked")
    func binaryBodies() async throws {
        let size = 300 * 1024
        try await withServerAndClient { server, client in
            let sized = try await client.send(.init(url: server.url("/bytes/\(size)")))
            #expect(sized.body.count == size)
            #expect(sized.body == TestHTTPServer.pattern(size))
            let chunked = try await client.send(.init(url: server.url("/chunked/\(size)")))
            #expect(chunked.header("Transfer-Encoding") == "chunked")
            #expect(chunked.body == TestHTTPServer.pattern(size))
        }
    }

    @Test("a header with CR/LF is rejected before anything is sent")
    func headerInjectionRejected() async throws {
        try await withServerAndClient { server, client in
            let error = await transportError {
                try await client.send(.init(url: server.url("/echo"), headers: [("X-Test", "a\r\nX-Evil: 1")]))
            }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.delivery == .notSent)
            #expect(server.stats.snapshot.requests == 0)
        }
    }

    @Test("non-HTTP URLs such as file:// are refused as invalid requests", arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "not a url"])
    func nonHTTPRefused(url: String) async throws {
        try await withClient { client in
            let error = await transportError { try await client.send(.init(url: url)) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.delivery == .notSent)
        }
    }

    @Test("a response header is found whatever its case")
    func responseHeaderLookup() {
        let response = CurlHTTPClient.Response(
            status: 200, headers: [(name: "content-TYPE", value: "application/json"), (name: "X-A", value: "1")], body: [])
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("x-a") == "1")
        #expect(response.header("X-B") == nil)
    }
}
