import Dispatch
import EventLoopExecution
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import NIOCore
import NIOPosix
import Testing

/// Over real HTTP on loopback: where a handler runs is a property of the server, not the router.
@Suite struct EventLoopPinnedChannelTests {
    /// A handler's answer: "loop" when it ran on an event loop thread before and after a
    /// continuation resumed by another thread, else "pool".
    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/where") { _, _ -> String in
            let before = MultiThreadedEventLoopGroup.currentEventLoop != nil
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { continuation.resume() }
            }
            let after = MultiThreadedEventLoopGroup.currentEventLoop != nil
            return before && after ? "loop" : "pool"
        }
        return router
    }

    static func answers(_ server: HTTPServerBuilder) async throws -> [String] {
        let app = Application(router: router(), server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            var answers: [String] = []
            for _ in 0..<5 {
                try await client.execute(uri: "/where", method: .get) { response in
                    #expect(response.status == .ok)
                    answers.append(String(buffer: response.body))
                }
            }
            return answers
        }
    }

    @Test func handlersOfAPinnedServerRunOnTheConnectionsEventLoop() async throws {
        #expect(try await Self.answers(.http1OnEventLoop()) == Array(repeating: "loop", count: 5))
    }

    @Test func handlersOfHummingbirdsDefaultServerRunOnTheGlobalPool() async throws {
        // The contrast that shows the check above can fail.
        #expect(try await Self.answers(.http1()) == Array(repeating: "pool", count: 5))
    }
}
