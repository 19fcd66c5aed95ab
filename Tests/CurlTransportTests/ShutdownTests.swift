@testable import CurlTransport
import Logging
import PassgateTestSupport
import ServiceLifecycle
import Testing

@Suite("Shutdown")
struct ShutdownTests {
    @Test("shutdown lets quick calls finish, fails hung ones as shutdown, and nothing hangs", .timeLimit(.minutes(1)))
    func shutdownWithCallsInFlight() async throws {
        let server = try await TestHTTPServer.start()
        let client = CurlHTTPClient(configuration: .init(connectTimeoutMs: 5_000, timeoutMs: 30_000))
        // Quick: 100 ms against a 5 s grace, room to spare on a loaded machine.
        let quick = (0..<3).map { _ in Task { try await client.send(.init(url: server.url("/delay/100"))) } }
        let hung = (0..<2).map { _ in Task { try await client.send(.init(url: server.url("/hang"))) } }
        #expect(await eventually { server.stats.snapshot.requests == 5 })

        let start = ContinuousClock.now
        await client.shutdown(gracePeriodMs: 5_000)
        let shutdownTime = ContinuousClock.now - start
        // The hung calls hold shutdown until the grace period ends (the time limit bounds the rest).
        #expect(shutdownTime >= .milliseconds(4_900))
        for task in quick {
            #expect(try await task.value.status == 200)
        }
        for task in hung {
            let error = await transportError { try await task.value }
            #expect(error?.kind == .shutdown)
            #expect(error?.delivery == .mayHaveBeenDelivered)
        }
        #expect(client.engine.counts == (active: 0, queued: 0, tracked: 0))

        let late = await transportError { try await client.send(.init(url: server.url("/status/200"))) }
        #expect(late?.kind == .shutdown)
        #expect(late?.delivery == .notSent)  // refused before any transfer began
        await server.close()
    }

    @Test("shutdown without grace fails queued calls as not sent and running ones as may have been delivered")
    func immediateShutdown() async throws {
        let server = try await TestHTTPServer.start()
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.maxConcurrentTransfers = 1
        let client = CurlHTTPClient(configuration: configuration)
        let running = Task { try await client.send(.init(url: server.url("/hang"))) }
        #expect(await eventually { server.stats.snapshot.activeRequests == 1 })
        let queued = (0..<2).map { _ in Task { try await client.send(.init(url: server.url("/status/200"))) } }
        #expect(await eventually { client.engine.counts.queued == 2 })

        await client.shutdown(gracePeriodMs: 0)
        let runningError = await transportError { try await running.value }
        #expect(runningError?.kind == .shutdown)
        #expect(runningError?.delivery == .mayHaveBeenDelivered)
        for task in queued {
            let error = await transportError { try await task.value }
            #expect(error?.kind == .shutdown)
            #expect(error?.delivery == .notSent)
        }
        #expect(server.stats.snapshot.requests == 1)
        await client.shutdown()  // a second call returns at once
        await server.close()
    }

    @Test("as a Service, graceful shutdown of the group drains in-flight calls before run returns")
    func serviceGroupGracefulShutdown() async throws {
        let server = try await TestHTTPServer.start()
        var configuration = CurlHTTPClient.Configuration.forTests
        // A call long enough to be seen in flight even when the machine stalls the test for a
        // while, and a grace period that still covers it.
        configuration.shutdownGracePeriodMs = 8_000
        let client = CurlHTTPClient(configuration: configuration)
        let group = ServiceGroup(
            configuration: .init(services: [client], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        let runner = Task { try await group.run() }

        let call = Task { try await client.send(.init(url: server.url("/delay/4000"))) }
        #expect(await eventually { server.stats.snapshot.activeRequests == 1 })
        await group.triggerGracefulShutdown()
        #expect(try await call.value.status == 200)
        try await runner.value
        let late = await transportError { try await client.send(.init(url: server.url("/status/200"))) }
        #expect(late?.kind == .shutdown)
        await server.close()
    }
}
