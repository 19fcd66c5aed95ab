@testable import CurlTransport
import PassgateTestSupport
import Testing

@Suite("Cancellation")
struct CancellationTests {
    @Test("cancelling a call waiting on a slow server ends it as cancelled and removes the transfer", .timeLimit(.minutes(1)))
    func cancelInFlight() async throws {
        try await withServerAndClient { server, client in
            let task = Task { try await client.send(.init(url: server.url("/delay/60000"), timeoutMs: 120_000)) }
            #expect(await eventually { server.stats.snapshot.activeRequests == 1 })
            task.cancel()
            let error = await transportError { try await task.value }
            // The cancellation, not the server's answer 60 s later (past the time limit), ended the call.
            #expect(error?.kind == .cancelled)
            #expect(error?.delivery == .mayHaveBeenDelivered)
            #expect(await eventually { client.engine.counts == (active: 0, queued: 0, tracked: 0) })
            // The half-finished connection cannot be reused, so curl closes it.
            #expect(await eventually { server.stats.snapshot.closed == 1 })
        }
    }

    @Test("a call from an already-cancelled task fails as cancelled and not sent")
    func cancelledBeforeSending() async throws {
        try await withServerAndClient { server, client in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(.init(url: server.url("/status/200")))
            }
            let error = await transportError { try await task.value }
            #expect(error?.kind == .cancelled)
            #expect(error?.delivery == .notSent)
            #expect(server.stats.snapshot.requests == 0)
            #expect(client.engine.counts == (active: 0, queued: 0, tracked: 0))
        }
    }

    @Test("cancelling a call still waiting for a transfer slot fails it as not sent")
    func cancelQueued() async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.maxConcurrentTransfers = 1
        try await withServerAndClient(configuration) { server, client in
            let first = Task { try await client.send(.init(url: server.url("/delay/10000"))) }
            #expect(await eventually { server.stats.snapshot.activeRequests == 1 })
            let second = Task { try await client.send(.init(url: server.url("/status/200"))) }
            #expect(await eventually { client.engine.counts.queued == 1 })
            second.cancel()
            let error = await transportError { try await second.value }
            #expect(error?.kind == .cancelled)
            #expect(error?.delivery == .notSent)
            #expect(server.stats.snapshot.requests == 1)
            first.cancel()
            _ = await transportError { try await first.value }
        }
    }
}
