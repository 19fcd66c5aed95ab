import EventLoopExecution
import Hummingbird
import NIOCore
import NIOPosix
import PassgateTestSupport
import Synchronization
import Testing

/// A real listener (``HTTP1DispatchChannel``) over loopback: a lone request is handled on the
/// event loop that read it; with more requests held in flight than the limit, the next one is
/// handled on Swift's pool; and once they are answered, on the loop again.
@Suite struct HTTP1DispatchChannelExecutionTests {
    @Test func aLoneRequestIsHandledOnTheLoopThatReadIt() async throws {
        try await DispatchServer.with(router: Self.router(gate: Gate()), requestsOnEventLoop: 1) { port, _ in
            let socket = try LoopbackSocket(port: port)
            for _ in 0..<3 {
                #expect(try await socket.get("/where") == "loop")
            }
        }
    }

    @Test func requestsBeyondTheLimitAreHandledOnThePoolUntilTheOthersAreAnswered() async throws {
        let gate = Gate()
        try await DispatchServer.with(router: Self.router(gate: gate), requestsOnEventLoop: 1) { port, _ in
            // Two requests held open on connections of their own.
            let held = try (0..<2).map { _ in try LoopbackSocket(port: port) }
            for socket in held { try socket.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n") }
            try await gate.waitUntilHeld(2)
            let socket = try LoopbackSocket(port: port)
            #expect(try await socket.get("/where") == "pool")
            gate.open()
            for socket in held { #expect(try await socket.readResponse().body == "held") }
            // The count drops when a held request's task has its answer, a moment before the loop
            // writes it; the next request must not depend on that order.
            var place = ""
            for _ in 0..<100 {
                place = try await socket.get("/where")
                if place == "loop" { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(place == "loop")
        }
    }

    @Test func aLimitOfZeroLeavesEveryRequestOnThePool() async throws {
        try await DispatchServer.with(router: Self.router(gate: Gate()), requestsOnEventLoop: 0) { port, _ in
            let socket = try LoopbackSocket(port: port)
            #expect(try await socket.get("/where") == "pool")
        }
    }

    static func router(gate: Gate) -> Router<BasicRequestContext> {
        let router = Router()
        // A NIO loop thread has a current event loop; Swift's pool threads do not.
        router.get("where") { _, _ in MultiThreadedEventLoopGroup.currentEventLoop == nil ? "pool" : "loop" }
        router.get("hold") { _, _ in
            await gate.hold()
            return "held"
        }
        return router
    }
}
