import CurlTransport
import MetricsTestKit
import Testing

/// The engine reuses easy handles, and a handle whose last transfer had the same CA bundle, proxy
/// and method keeps its options (bench/decisions/0011-curl-handles-and-sockets-kept.md): nothing of one request may leak into the next
/// one that gets the same handle, and each request's own options must take.
@Suite("Easy handle reuse")
struct HandleReuseTests {
    @Test("after a POST with headers and a body, a plain GET on a reused handle sends neither")
    func noCarryOver() async throws {
        try await withServerAndClient { server, client in
            for round in 0..<5 {
                let post = try await client.send(
                    .init(method: .post, url: server.url("/echo"),
                          headers: [("Content-Type", "application/json"), ("X-Test", "round \(round)")],
                          body: Array(#"{"round":\#(round)}"#.utf8)))
                #expect(post.header("X-Echo-Method") == "POST" && post.header("X-Echo-Test") == "round \(round)")
                #expect(post.bodyText == #"{"round":\#(round)}"#)
                let get = try await client.send(.init(url: server.url("/echo")))
                #expect(get.header("X-Echo-Method") == "GET")
                #expect(get.header("X-Echo-Test") == "")
                #expect(get.header("X-Echo-Content-Type") == "")
                #expect(get.bodyText == "")
                let head = try await client.send(.init(method: .head, url: server.url("/status/200")))
                #expect(head.status == 200 && head.body.isEmpty)
            }
        }
    }

    @Test("a handle whose request timed out serves the next request normally")
    func reuseAfterFailure() async throws {
        try await withServerAndClient { server, client in
            await #expect(throws: CurlTransportError.self) {
                _ = try await client.send(.init(url: server.url("/delay/2000"), timeoutMs: 100))
            }
            let next = try await client.send(.init(url: server.url("/status/200")))
            #expect(next.status == 200 && next.bodyText == "status 200")
        }
    }

    @Test("POSTs on a kept handle send each request's own URL, headers and body, and none of the last one's")
    func keptHandleTakesEachRequestsOwnOptions() async throws {
        try await withServerAndClient { server, client in
            for round in 0..<4 {
                let tagged = try await client.send(
                    .init(method: .post, url: server.url("/echo"), headers: [("X-Test", "round \(round)")],
                          body: Array("tagged \(round)".utf8)))
                #expect(tagged.header("X-Echo-Test") == "round \(round)" && tagged.bodyText == "tagged \(round)")
                let plain = try await client.send(
                    .init(method: .post, url: server.url("/echo"), headers: [("Content-Type", "text/plain")],
                          body: Array("plain".utf8)))
                #expect(plain.header("X-Echo-Test") == "" && plain.header("X-Echo-Content-Type") == "text/plain")
                #expect(plain.bodyText == "plain")
                let empty = try await client.send(.init(method: .post, url: server.url("/echo")))
                #expect(empty.header("X-Echo-Method") == "POST" && empty.bodyText == "")
                let other = try await client.send(.init(method: .post, url: server.url("/status/201"), body: [1]))
                #expect(other.status == 201)
            }
        }
    }

    @Test("a kept handle applies each request's own timeout: curl ends the short one, not the watchdog")
    func keptHandleTakesEachRequestsTimeout() async throws {
        let metrics = TestMetrics()
        try await withServerAndClient(metrics: metrics) { server, client in
            let slow = try await client.send(.init(url: server.url("/delay/300"), timeoutMs: 5_000))
            #expect(slow.status == 200)
            let error = await #expect(throws: CurlTransportError.self) {
                _ = try await client.send(.init(url: server.url("/delay/2000"), timeoutMs: 100))
            }
            #expect(error?.kind == .timeoutAfterSend)
            let again = try await client.send(.init(url: server.url("/delay/300"), timeoutMs: 5_000))
            #expect(again.status == 200)
            // Had the handle kept the first request's 5 s, the engine's watchdog would have failed
            // the second one a second past its 100 ms instead (same error kind, this counter).
            let watchdog = try? metrics.expectCounter("passgate_transport_watchdog_total", [("action", "failed")])
            #expect((watchdog?.totalValue ?? 0) == 0)
        }
    }

    @Test("the configured User-Agent is sent exactly once, and a request's own User-Agent replaces it")
    func userAgentOnceOrTheRequests() async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.userAgent = "passgate-test/7"
        try await withServerAndClient(configuration) { server, client in
            for _ in 0..<3 {
                let plain = try await client.send(.init(method: .post, url: server.url("/echo"), body: Array("x".utf8)))
                #expect(plain.header("X-Echo-User-Agent") == "passgate-test/7")
                let own = try await client.send(
                    .init(method: .post, url: server.url("/echo"), headers: [("user-agent", "backend/2")], body: Array("x".utf8)))
                #expect(own.header("X-Echo-User-Agent") == "backend/2")
                let get = try await client.send(.init(url: server.url("/echo")))
                #expect(get.header("X-Echo-User-Agent") == "passgate-test/7")
            }
        }
    }

    @Test("an empty configured User-Agent sends no User-Agent line")
    func emptyUserAgentSendsNone() async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.userAgent = ""
        try await withServerAndClient(configuration) { server, client in
            let plain = try await client.send(.init(method: .post, url: server.url("/echo"), body: Array("x".utf8)))
            #expect(plain.status == 200 && plain.header("X-Echo-User-Agent") == "")
        }
    }

    @Test("a request through a proxy between direct ones: only it goes to the proxy")
    func proxyDoesNotStayOnTheHandle() async throws {
        let proxy = try await TestHTTPServer.start()
        try await withServerAndClient { server, client in
            for round in 1...3 {
                let direct = try await client.send(.init(method: .post, url: server.url("/echo"), body: Array("a".utf8)))
                #expect(direct.status == 200 && direct.bodyText == "a")
                // The test server is no real proxy: it answers the absolute-form request with 404.
                let proxied = try await client.send(
                    .init(method: .post, url: server.url("/echo"), body: Array("b".utf8), proxy: proxy.url("")))
                #expect(proxied.status == 404)
                #expect(proxy.stats.snapshot.requests == round)
            }
            let last = try await client.send(.init(method: .post, url: server.url("/echo"), body: Array("c".utf8)))
            #expect(last.status == 200 && last.bodyText == "c")
            #expect(proxy.stats.snapshot.requests == 3)
        }
        await proxy.close()
    }
}
