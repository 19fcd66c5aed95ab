import CurlTransport
import Testing

/// The engine reuses reset easy handles (bench/PROFILE.md): nothing of one request may leak
/// into the next one that gets the same handle.
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
}
