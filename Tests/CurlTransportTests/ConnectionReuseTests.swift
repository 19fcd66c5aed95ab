import CurlTransport
import Testing

@Suite("Connection reuse")
struct ConnectionReuseTests {
    @Test("100 sequential requests open at most a handful of connections")
    func sequentialRequestsReuseConnections() async throws {
        try await withServerAndClient { server, client in
            var reused = 0
            for index in 0..<100 {
                let response = try await client.send(
                    .init(method: .post, url: server.url("/echo"), body: Array("request \(index)".utf8)))
                #expect(response.bodyText == "request \(index)")
                if response.connectionReused { reused += 1 }
            }
            let stats = server.stats.snapshot
            #expect(stats.requests == 100)
            #expect(stats.accepted <= 3)
            #expect(reused >= 97)
        }
    }
}
