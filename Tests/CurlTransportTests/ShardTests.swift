@testable import CurlTransport
import PassgateTestSupport
import Testing

/// The engine's multi handles (``CurlShardPicker``) over real HTTP on loopback: each keeps its own
/// connections, light load stays on the first, and every kind of ending works on any of them.
@Suite("Multi-handle shards")
struct ShardTests {
    /// 4 shards of 4 transfers, each keeping at most 4 idle connections.
    static var shardedConfiguration: CurlHTTPClient.Configuration {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.transfersPerShard = 4
        configuration.maxConcurrentTransfers = 16
        configuration.maxConnections = 4
        return configuration
    }

    @Test("the socket loop runs one multi handle per capacity of allowed transfers; the portable loop one")
    func shardCountFollowsConfiguration() async throws {
        try await withClient(Self.shardedConfiguration) { client in
            #if os(Linux)
            #expect(client.engine.events?.multis.count == 4)
            #else
            #expect(client.engine.events?.multis.count == 1)
            #endif
        }
        var polling = Self.shardedConfiguration
        polling.socketEvents = false
        try await withClient(polling) { client in
            #expect(client.engine.events?.multis.count == 1)
        }
    }

    #if os(Linux)
    @Test("16 calls held open together spread over 4 shards whose pools keep 4 connections each: a second wave reuses all 16")
    func eachShardKeepsItsOwnConnections() async throws {
        try await withServerAndClient(Self.shardedConfiguration) { server, client in
            // Each wave holds 16 calls open together (the server answers none until it has all
            // 16), so each call needs a connection of its own.
            func wave() async throws -> [Bool] {
                server.stats.closeGate()
                return try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            let response = try await client.send(.init(url: server.url("/gate")))
                            #expect(response.bodyText == "ok")
                            return response.connectionReused
                        }
                    }
                    #expect(await eventually { server.stats.snapshot.activeRequests == 16 })
                    server.stats.openGate()
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let first = try await wave()
            #expect(first.allSatisfy { !$0 })
            #expect(server.stats.snapshot.accepted == 16)
            // One multi handle keeping 4 idle connections would have closed 12 of them here.
            let second = try await wave()
            #expect(second.allSatisfy { $0 }, "reused: \(second.filter { $0 }.count) of 16")
            #expect(server.stats.snapshot.accepted == 16)

            // Light load again: one call at a time stays on shard 0 and its connections.
            for _ in 0..<10 {
                #expect(try await client.send(.init(url: server.url("/status/204"))).connectionReused)
            }
            #expect(server.stats.snapshot.accepted == 16)
            #expect(await eventually { client.engine.counts == (active: 0, queued: 0, tracked: 0) })
        }
    }

    @Test("after a burst, a shard other than the first that stays idle for the keep-alive age closes its connections; the first keeps its own")
    func idleShardsCloseTheirConnections() async throws {
        var configuration = Self.shardedConfiguration
        configuration.maxIdleConnectionSeconds = 1
        try await withServerAndClient(configuration) { server, client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { _ = try await client.send(.init(url: server.url("/gate"))) }
                }
                // All 8 open together: 4 on each of the first two shards.
                #expect(await eventually { server.stats.snapshot.activeRequests == 8 })
                server.stats.openGate()
                try await group.waitForAll()
            }
            #expect(server.stats.snapshot.accepted == 8)
            // Shard 1's four connections go within a second or two; shard 0 has nothing to renew it.
            #expect(await eventually { server.stats.snapshot.closed == 4 })
            try await Task.sleep(for: .milliseconds(1_500))
            #expect(server.stats.snapshot.closed == 4)
            #expect(try await client.send(.init(url: server.url("/status/204"))).status == 204)
        }
    }
    #endif
}
