@testable import CurlTransport
import Testing

/// The engine starts the transfers admitted in one turn one at a time and answers each caller as
/// soon as its transfer ends, within the turn. These tests hold it to what that must not change:
/// every caller gets its own answer, on reused connections, and the gauges and counts end at zero.
/// (That answers come sooner is a performance claim, measured by `bench/run`, not here.)
@Suite("Curl engine: answers within the turn")
struct TurnDeliveryTests {
    @Test("64 calls submitted together to an instant server each get their own body back, over reused connections")
    func batchOfInstantCalls() async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.maxConnections = 64
        try await withServerAndClient(configuration) { server, client in
            for wave in 0..<3 {
                let answers = try await withThrowingTaskGroup(of: (Int, String, Bool).self) { group in
                    for index in 0..<64 {
                        group.addTask {
                            let response = try await client.send(
                                .init(method: .post, url: server.url("/echo"), body: Array("wave \(wave) call \(index)".utf8)))
                            return (index, response.bodyText, response.connectionReused)
                        }
                    }
                    var answers: [(Int, String, Bool)] = []
                    for try await answer in group { answers.append(answer) }
                    return answers
                }
                #expect(answers.count == 64)
                for (index, body, _) in answers {
                    #expect(body == "wave \(wave) call \(index)", "call \(index) got another call's answer")
                }
                if wave > 0 {
                    #expect(answers.filter(\.2).count >= 32, "later waves reuse the first wave's connections")
                }
            }
            #expect(server.stats.snapshot.requests == 192)
            // curl keeps up to 64 idle connections: the later waves open few or none.
            #expect(server.stats.snapshot.accepted <= 96)
            let counts = client.engine.counts
            #expect(counts.active == 0 && counts.queued == 0 && counts.tracked == 0)
        }
    }

    @Test("a call whose reply was read in a turn is answered although the same turn starts calls that never end")
    func answeredWhileOthersHang() async throws {
        try await withServerAndClient { server, client in
            let hanging = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<8 {
                        group.addTask { _ = try await client.send(.init(url: server.url("/hang"))) }
                    }
                    try await group.waitForAll()
                }
            }
            for index in 0..<20 {
                let response = try await client.send(
                    .init(method: .post, url: server.url("/echo"), body: Array("call \(index)".utf8)))
                #expect(response.bodyText == "call \(index)")
            }
            hanging.cancel()
            _ = await hanging.result
        }
    }
}
