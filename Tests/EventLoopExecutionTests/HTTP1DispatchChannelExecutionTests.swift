import EventLoopExecution
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A real HTTP listener built with `http1(requestsOnEventLoop:)`, over loopback: a lone request is
/// handled on the event loop that read it; with more requests held in flight than the limit, the
/// next one is handled on Swift's pool; and once they are answered, on the loop again.
@Suite struct EventLoopPreferringChannelTests {
    @Test func aLoneRequestIsHandledOnTheLoopThatReadIt() async throws {
        let app = Self.application(requestsOnEventLoop: 1, gate: Gate())
        try await app.test(.live) { client in
            for _ in 0..<3 {
                let response = try await client.execute(uri: "/where", method: .get)
                #expect(String(buffer: response.body) == "loop")
            }
        }
    }

    @Test func requestsBeyondTheLimitAreHandledOnThePoolUntilTheOthersAreAnswered() async throws {
        let gate = Gate()
        let app = Self.application(requestsOnEventLoop: 1, gate: gate)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Two requests held open on connections of their own.
                for _ in 0..<2 {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: port) { held in
                            _ = try await held.get("/hold")
                        }
                    }
                }
                try await gate.waitUntilHeld(2)
                let busy = try await client.execute(uri: "/where", method: .get)
                #expect(String(buffer: busy.body) == "pool")
                gate.open()
                try await group.waitForAll()
            }
            // A held request's client can read its answer a moment before the server counts it
            // finished, so ask until the count has caught up (at most about a second).
            var place = ""
            for _ in 0..<100 {
                place = String(buffer: try await client.execute(uri: "/where", method: .get).body)
                if place == "loop" { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(place == "loop")
        }
    }

    @Test func aLimitOfZeroLeavesEveryRequestOnThePool() async throws {
        let app = Self.application(requestsOnEventLoop: 0, gate: Gate())
        try await app.test(.live) { client in
            let response = try await client.execute(uri: "/where", method: .get)
            #expect(String(buffer: response.body) == "pool")
        }
    }

    static func application(requestsOnEventLoop: Int, gate: Gate) -> some ApplicationProtocol {
        let router = Router()
        // A NIO loop thread has a current event loop; Swift's pool threads do not.
        router.get("where") { _, _ in MultiThreadedEventLoopGroup.currentEventLoop == nil ? "pool" : "loop" }
        router.get("hold") { _, _ in
            await gate.hold()
            return "held"
        }
        return Application(
            router: router, server: .http1(requestsOnEventLoop: requestsOnEventLoop),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}

/// Holds requests until the test opens it; counts the ones it holds.
final class Gate: Sendable {
    private struct State {
        var open = false
        var held = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func hold() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.held += 1
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once `count` requests are held; throws after 10 s without them.
    func waitUntilHeld(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while state.withLock({ $0.held }) < count {
            guard ContinuousClock.now < deadline else { throw NotHeld(count: count) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    struct NotHeld: Error {
        let count: Int
    }
}
