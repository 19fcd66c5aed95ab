@testable import CurlTransport
import Synchronization
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

#if os(Linux)
extension ConnectionReuseTests {
    @Test("calls on a kept connection leave the epoll set alone: the idle socket stays registered between them")
    func keptConnectionStaysRegistered() async throws {
        try await withServerAndClient { server, client in
            let events = try #require(client.engine.events)
            _ = try await client.send(.init(method: .post, url: server.url("/echo"), body: Array("first".utf8)))
            let afterFirst = events.epollChanges.load(ordering: .relaxed)
            for index in 0..<50 {
                let response = try await client.send(.init(method: .post, url: server.url("/echo"), body: Array("call \(index)".utf8)))
                #expect(response.bodyText == "call \(index)")
            }
            #expect(server.stats.snapshot.accepted == 1)
            // Two per call (curl's add on start, remove on end) before idle sockets stayed in the set.
            let changes = events.epollChanges.load(ordering: .relaxed) - afterFirst
            #expect(changes <= 5, "\(changes) epoll changes over 50 calls on one connection")
        }
    }

    @Test("an idle connection the server closes leaves the epoll set once, and the next call opens a new one")
    func serverClosedIdleConnection() async throws {
        try await withServerAndClient { server, client in
            let events = try #require(client.engine.events)
            let first = try await client.send(.init(url: server.url("/close-at-gate")))
            #expect(first.bodyText == "ok")
            let before = events.epollChanges.load(ordering: .relaxed)
            server.stats.openGate()
            // The server closes the kept connection: the parked socket reads end-of-file and leaves the set.
            let deadline = ContinuousClock.now + .seconds(5)
            while events.epollChanges.load(ordering: .relaxed) == before, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(events.epollChanges.load(ordering: .relaxed) == before + 1)
            // Level-triggered end-of-file on a socket still in the set would wake the engine without
            // end; it left the set, so nothing more changes while the engine idles.
            try await Task.sleep(for: .milliseconds(200))
            #expect(events.epollChanges.load(ordering: .relaxed) == before + 1)
            let second = try await client.send(.init(method: .post, url: server.url("/echo"), body: Array("again".utf8)))
            #expect(second.bodyText == "again")
            #expect(!second.connectionReused)
            #expect(server.stats.snapshot.accepted == 2)
        }
    }
}
#endif
