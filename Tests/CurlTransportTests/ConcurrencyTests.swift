@testable import CurlTransport
import NIOCore
import NIOPosix
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("1,000 concurrent calls to a 200 ms server finish together on one engine thread")
    func thousandConcurrentCalls() async throws {
        ProcessInfoHelpers.raiseFileLimit()
        // Its own event loop, so 1,000 connections do not starve the other tests' servers.
        let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await TestHTTPServer.start(backlog: 2_048, group: eventLoopGroup)
        var configuration = CurlHTTPClient.Configuration(connectTimeoutMs: 5_000, timeoutMs: 20_000)
        configuration.maxConcurrentTransfers = 2_000
        configuration.maxConnections = 64
        try await withClient(configuration) { client in
            let engineThread = client.engine.threadName
            // Warm up: the engine thread and the NIO server threads exist before measuring.
            _ = try await client.send(.init(url: server.url("/status/200")))
            let before = ProcessInfoHelpers.threadNames()
            #expect(before.filter { $0 == engineThread }.count == 1)

            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<1_000 {
                    group.addTask { try await client.send(.init(url: server.url("/delay/200"))).status }
                }
                var peak: [String] = []
                let sampler = Task {
                    try await Task.sleep(for: .milliseconds(150))
                    return ProcessInfoHelpers.threadNames()
                }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                peak = try await sampler.value
                #expect(peak.filter { $0 == engineThread }.count == 1)
                return statuses
            }
            let after = ProcessInfoHelpers.threadNames()

            #expect(statuses.count == 1_000)
            #expect(statuses.allSatisfy { $0 == 200 })
            // Many requests were open on the server at the same moment.
            #expect(server.stats.snapshot.maxActiveRequests > 100)
            // libcurl spawned no helper threads (they would inherit the engine thread's name).
            #expect(after.filter { $0 == engineThread }.count == 1)
            // No count of the process's other threads: tests running in parallel start servers,
            // subprocess waiters and writer threads of their own, so that count says nothing here.
        }
        await server.close()
        try await eventLoopGroup.shutdownGracefully()
    }

    @Test("maxConcurrentTransfers caps the transfers on the wire and queues the rest")
    func concurrencyCap() async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.maxConcurrentTransfers = 2
        try await withServerAndClient(configuration) { server, client in
            let start = ContinuousClock.now
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await client.send(.init(url: server.url("/delay/200"))).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 6))
            #expect(server.stats.snapshot.maxActiveRequests == 2)
            #expect(server.stats.snapshot.requests == 6)
            // Three waves of two.
            #expect(ContinuousClock.now - start >= .milliseconds(590))
        }
    }
}
