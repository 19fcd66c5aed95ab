@testable import CurlTransport
#if canImport(Glibc)
import Glibc
#endif
import MetricsTestKit
import PassgateTestSupport
import Testing

/// The engine has two ways to drive curl (``CurlEventLoop``): every other suite runs the default
/// (epoll + `curl_multi_socket_action` on Linux); these run the same kinds of calls through both,
/// so the portable loop stays a working fallback and the socket loop's timer path is proven.
@Suite("Event loops")
struct EventLoopTests {
    @Test("the default on Linux is the socket loop; socketEvents false selects the portable loop")
    func modeSelection() async throws {
        try await withClient { client in
            #if os(Linux)
            guard case .sockets = client.engine.events?.mode else {
                Issue.record("expected epoll + curl_multi_socket_action, got \(String(describing: client.engine.events?.mode))")
                return
            }
            #else
            #expect(client.engine.events?.mode == .polling)
            #endif
        }
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.socketEvents = false
        try await withClient(configuration) { client in
            #expect(client.engine.events?.mode == .polling)
        }
    }

    @Test(
        "both loops: concurrent successes, a refused connect, a timeout with no socket event and a cancelled call",
        .timeLimit(.minutes(1)), arguments: [true, false])
    func mixedWorkload(socketEvents: Bool) async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.socketEvents = socketEvents
        // The socket loop then spreads the 200 calls over up to 13 multi handles (the portable loop has one).
        configuration.transfersPerShard = 16
        let refusedPort = try ProcessInfoHelpers.closedPort()
        try await withServerAndClient(configuration) { server, client in
            let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for index in 0..<200 {
                    let path = index.isMultiple(of: 2) ? "/delay/50" : "/bytes/\(1_000 + index)"
                    group.addTask { try await client.send(.init(url: server.url(path))).body }
                }
                return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
            }
            #expect(bodies.count == 200)
            #expect(bodies.filter { $0 == Array("ok".utf8) }.count == 100)
            #expect(bodies.filter { $0.count > 1_000 }.count == 100)

            let refused = await transportError {
                try await client.send(.init(url: "http://127.0.0.1:\(refusedPort)/"))
            }
            #expect(refused?.kind == .connectionRefused)
            #expect(refused?.delivery == .notSent)

            // The server reads the request and never answers: no socket event will ever come, so
            // only curl's timer (the timer callback in the socket loop) can end the call.
            let start = ContinuousClock.now
            let timedOut = await transportError {
                try await client.send(.init(url: server.url("/hang"), timeoutMs: 300))
            }
            let elapsed = ContinuousClock.now - start
            #expect(timedOut?.kind == .timeoutAfterSend)
            #expect(elapsed >= .milliseconds(290), "timed out after \(elapsed)")

            let slow = Task { try await client.send(.init(url: server.url("/delay/60000"), timeoutMs: 120_000)) }
            #expect(await eventually { server.stats.snapshot.activeRequests == 1 })
            slow.cancel()
            #expect(await transportError { try await slow.value }?.kind == .cancelled)
            #expect(await eventually { client.engine.counts == (active: 0, queued: 0, tracked: 0) })

            // The engine is still healthy afterwards.
            #expect(try await client.send(.init(url: server.url("/status/204"))).status == 204)
        }
    }

    /// libcurl 7.88 sometimes consumes a transfer's timeout timer without ending the transfer; the
    /// engine's watchdog (``CurlWatchdog``) must still end every one.
    /// Without it, about one call in ten to a silent server never returned.
    @Test("socket loop: every call to a server that never answers ends as a timeout, none waits forever",
          .timeLimit(.minutes(1)))
    func silentServerCallsAllTimeOut() async throws {
        try await withServerAndClient { server, client in
            // One call at a time (how the fail-over test met it), then many at once.
            for (round, width) in [1, 1, 1, 1, 1, 1, 1, 1, 40, 40].enumerated() {
                let outcomes = await withTaskGroup(of: (CurlTransportError.Kind?, Duration).self) { group in
                    for _ in 0..<width {
                        group.addTask {
                            let start = ContinuousClock.now
                            let error = await transportError { try await client.send(.init(url: server.url("/hang"), connectTimeoutMs: 100, timeoutMs: 300)) }
                            return (error?.kind, ContinuousClock.now - start)
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                // Ended by curl or by the watchdog as a timeout; one left waiting trips the time limit.
                #expect(outcomes.allSatisfy { $0.0 == .timeoutAfterSend }, "round \(round): \(outcomes.map { $0.0 })")
            }
        }
    }

    @Test("socket loop: a transfer curl keeps a second past the watchdog's deadline is failed as a timeout")
    func watchdogFailsTransfersCurlKeeps() async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        // curl's own timeout stays at 8 s; the watchdog believes it was 1 s.
        configuration.watchdogDeadlineShiftMs = -7_000
        // One transfer per multi handle: the call below runs on the second, not the first.
        configuration.transfersPerShard = 1
        let metrics = TestMetrics()
        try await withServerAndClient(configuration, metrics: metrics) { server, client in
            let first = Task { try await client.send(.init(url: server.url("/delay/3000"), timeoutMs: 15_000)) }
            #expect(await eventually { server.stats.snapshot.activeRequests == 1 })
            let start = ContinuousClock.now
            let error = await transportError { try await client.send(.init(url: server.url("/hang"), timeoutMs: 8_000)) }
            let elapsed = ContinuousClock.now - start
            #expect(error?.kind == .timeoutAfterSend, "\(String(describing: error))")
            #expect(error?.delivery == .mayHaveBeenDelivered)
            // Not before the 1 s deadline + 1 s grace. That the watchdog ended it, not curl's own 8 s
            // timeout, is proven by the "failed" counter below, not by an upper bound on the wall
            // clock (which a loaded machine can exceed).
            #expect(elapsed >= .milliseconds(1_900), "ended after \(elapsed)")
            #expect(await eventually { client.engine.counts == (active: 0, queued: 0, tracked: 0) })
            #expect(try await first.value.bodyText == "ok")
            let after = try await client.send(.init(url: server.url("/status/200")))
            #expect(after.status == 200)
            // Nudged on the way (curl's own 8 s timeout was not due, so that changed nothing), then failed.
            #expect(try metrics.expectCounter("passgate_transport_watchdog_total", [("action", "nudged")]).totalValue >= 1)
            #expect(try metrics.expectCounter("passgate_transport_watchdog_total", [("action", "failed")]).totalValue == 1)
        }
    }

    #if os(Linux)
    /// Callers wake the engine after releasing its state lock, so a wake can come after the engine
    /// thread has closed its loop. It must then signal nothing, not even a descriptor that has
    /// since taken the wake-up descriptor's number.
    @Test("socket loop: a wake after close writes nothing, not even to a descriptor now holding the wake-up's number")
    func wakeAfterCloseWritesNothing() throws {
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        defer {
            close(pipeEnds[0])
            close(pipeEnds[1])
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        // The freed number goes to the lowest free descriptor at or above it; another test's
        // socket can take it first, so try a few loops until the pipe's write end holds it.
        var reused: Int32 = -1
        for _ in 0..<50 where reused < 0 {
            let loop = try #require(CurlEventLoop(shardCount: 1, maxConnections: 1, preferSockets: true))
            guard case .sockets(_, let wakeup) = loop.mode else {
                Issue.record("expected the socket loop, got \(loop.mode)")
                return
            }
            loop.close()
            let copy = fcntl(pipeEnds[1], F_DUPFD_CLOEXEC, wakeup)
            try #require(copy >= 0)
            if copy == wakeup {
                reused = copy
                loop.wake()
            } else {
                close(copy)
            }
        }
        try #require(reused >= 0, "the wake-up descriptor's number was never free again")
        defer { close(reused) }
        var byte: UInt8 = 0
        let count = read(pipeEnds[0], &byte, 1)
        #expect(count == -1 && errno == EAGAIN, "the wake wrote to the descriptor that reused the number (read \(count))")
    }
    #endif
}
