import EventLoopExecution
import Hummingbird
import NIOCore
import NIOPosix
import PassgateTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// The HTTP/1.1 behaviour of ``HTTP1DispatchChannel`` on real loopback connections, byte for byte:
/// what a client library would hide (pipelining, keep-alive, framing, malformed requests) is sent
/// and read raw.
@Suite struct HTTP1DispatchChannelTests {
    /// `held`: answered once `gate` opens.
    static func router(gate: Gate = Gate()) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("hello") { _, _ in "hello" }
        router.get("held") { _, _ -> String in
            await gate.hold()
            return "held"
        }
        router.post("echo") { request, _ -> String in
            String(buffer: try await request.body.collect(upTo: 1 << 20))
        }
        router.post("size") { request, _ -> String in
            do {
                return String(try await request.body.collect(upTo: 1 << 20).readableBytes)
            } catch let error as NIOTooManyBytesError {
                return "too large over \(error.maxBytes ?? -1)"
            }
        }
        router.get("streamed") { _, _ in
            Response(status: .ok, body: ResponseBody { writer in
                for part in ["one,", "two,", "three"] { try await writer.write(ByteBuffer(string: part)) }
                try await writer.finish(nil)
            })
        }
        router.get("failing-body") { _, _ in
            Response(status: .ok, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "partial"))
                throw CancellationError()
            })
        }
        return router
    }

    @Test func anAnswerCarriesItsLengthDateAndServerAndTheConnectionStaysOpen() async throws {
        try await DispatchServer.with(router: Self.router()) { port, _ in
            let socket = try LoopbackSocket(port: port)
            for _ in 0..<3 {
                try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                let answer = try await socket.readResponse()
                #expect(answer.status == 200)
                #expect(answer.body == "hello")
                #expect(answer.headers["content-length"] == "5")
                #expect(answer.headers["server"] == "dispatch-test")
                #expect(answer.headers["date"]?.hasSuffix(" GMT") == true)  // the clock: theDateHeaderIsTheClocksSecond
                #expect(answer.headers["connection"] == nil)
            }
        }
    }

    @Test func theDateHeaderIsTheClocksSecond() async throws {
        let clock = ManualClock(milliseconds: 784_111_777_250)
        try await DispatchServer.with(router: Self.router(), configuration: .init(clock: clock)) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await socket.readResponse().headers["date"] == "Sun, 06 Nov 1994 08:49:37 GMT")
            clock.advance(milliseconds: 750)
            try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await socket.readResponse().headers["date"] == "Sun, 06 Nov 1994 08:49:38 GMT")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInTheOrderTheyWereSent() async throws {
        let gate = Gate()
        try await DispatchServer.with(router: Self.router(gate: gate)) { port, _ in
            let socket = try LoopbackSocket(port: port)
            // The first is held until the others have been sent and read: an answer written as
            // soon as it is ready would come first.
            try socket.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            try await gate.waitUntilHeld(1)
            try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            gate.open()
            #expect(try await socket.readResponse().body == "held")
            #expect(try await socket.readResponse().body == "hello")
            #expect(try await socket.readResponse().body == "hello")
        }
    }

    @Test func connectionCloseIsAnsweredWithConnectionCloseAndTheConnectionClosed() async throws {
        try await DispatchServer.with(router: Self.router()) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = try await socket.readResponse()
            #expect(answer.body == "hello")
            #expect(answer.headers["connection"] == "close")
            #expect(try await socket.readsEndOfFile())
        }
    }

    @Test func http10KeepsTheConnectionOnlyWhenAskedAndSaysSo() async throws {
        try await DispatchServer.with(router: Self.router()) { port, _ in
            let kept = try LoopbackSocket(port: port)
            for _ in 0..<2 {
                try kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let answer = try await kept.readResponse()
                #expect(answer.body == "hello")
                #expect(answer.headers["connection"] == "keep-alive")
            }
            let closed = try LoopbackSocket(port: port)
            try closed.send("GET /hello HTTP/1.0\r\n\r\n")
            #expect(try await closed.readResponse().headers["connection"] == "close")
            #expect(try await closed.readsEndOfFile())
        }
    }

    @Test func aHeadRequestGetsTheLengthAndNoBody() async throws {
        let router = Router()
        router.head("hello") { _, _ in Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "hello"))) }
        router.get("hello") { _, _ in "hello" }
        try await DispatchServer.with(router: router) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await socket.readResponse(bodyless: true)
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == "5")
            // Had the HEAD answer carried a body, this would read "hello" as the next status line.
            #expect(try await socket.readResponse().body == "hello")
        }
    }

    @Test func aBodyOverTheLimitFailsToCollectWithTheLimitAndTheConnectionGoesOn() async throws {
        let limit = Mutex(16)
        let configuration = HTTP1DispatchChannel.Configuration(maxRequestBodyBytes: { limit.withLock { $0 } })
        try await DispatchServer.with(router: Self.router(), configuration: configuration) { port, _ in
            let socket = try LoopbackSocket(port: port)
            let body = String(repeating: "x", count: 17)
            try socket.send("POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n\(body)")
            #expect(try await socket.readResponse().body == "too large over 16")
            try socket.send("POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n\(body.dropLast())")
            #expect(try await socket.readResponse().body == "16")
            // The limit is read per request: a higher one applies to the next request.
            limit.withLock { $0 = 17 }
            try socket.send("POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n\(body)")
            #expect(try await socket.readResponse().body == "17")
        }
    }

    @Test func aMalformedRequestGets400AndTheConnectionClosed() async throws {
        try await DispatchServer.with(router: Self.router()) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("GET /hello HTTP/1.1\r\nHost x\r\nBroken header line\r\n\r\n")
            let answer = try await socket.readResponse()
            #expect(answer.status == 400)
            #expect(try await socket.readsEndOfFile())
        }
    }

    @Test func aStreamedBodyIsSentWholeWithItsLength() async throws {
        try await DispatchServer.with(router: Self.router()) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("GET /streamed HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try await socket.readResponse()
            #expect(answer.body == "one,two,three")
            #expect(answer.headers["content-length"] == "13")
        }
    }

    @Test func aBodyThatFailsBecomesAnEmpty500AndTheConnectionCloses() async throws {
        try await DispatchServer.with(router: Self.router()) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("GET /failing-body HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try await socket.readResponse()
            #expect(answer.status == 500)
            #expect(answer.body.isEmpty)
            #expect(answer.headers["connection"] == "close")
            #expect(try await socket.readsEndOfFile())
        }
    }

    @Test func aClientThatHalfClosesAfterItsRequestGetsTheAnswerAndThenTheConnectionCloses() async throws {
        let gate = Gate()
        try await DispatchServer.with(router: Self.router(gate: gate)) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
            try await gate.waitUntilHeld(1)
            socket.shutdownWrite()
            gate.open()
            #expect(try await socket.readResponse().body == "held")
            #expect(try await socket.readsEndOfFile())
        }
        try await DispatchServer.with(router: Self.router()) { port, _ in
            let idle = try LoopbackSocket(port: port)
            _ = try await idle.get("/hello")
            idle.shutdownWrite()
            #expect(try await idle.readsEndOfFile())
        }
    }

    @Test func aClientThatLeavesMidRequestDoesNotStopTheServer() async throws {
        let gate = Gate()
        try await DispatchServer.with(router: Self.router(gate: gate)) { port, _ in
            do {
                let leaving = try LoopbackSocket(port: port)
                leaving.resetOnClose()
                try leaving.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
                try await gate.waitUntilHeld(1)
            }  // reset here, before its answer
            let socket = try LoopbackSocket(port: port)
            try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await socket.readResponse().body == "hello")
            gate.open()  // the left client's answer is dropped
        }
    }

    @Test func aGracefulShutdownFinishesTheAnswerInFlightWithConnectionCloseAndClosesIdleConnections() async throws {
        let gate = Gate()
        let router = Self.router(gate: gate)
        // One loop for both connections: the idle one closing then shows the shutdown notice has
        // reached the busy one too. On a loop each, the busy connection's loop may write the
        // answer before its notice arrives (then without `Connection: close`, and the connection
        // is closed after it as an idle one).
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { loop.shutdownGracefully { _ in } }
        try await DispatchServer.with(router: router, eventLoopGroup: loop) { port, group in
            let idle = try LoopbackSocket(port: port)
            _ = try await idle.get("/hello")
            let busy = try LoopbackSocket(port: port)
            try busy.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
            try await gate.waitUntilHeld(1)
            await group.triggerGracefulShutdown()
            // The held request's answer is queued on the loop behind the shutdown notice, so it
            // says close.
            #expect(try await idle.readsEndOfFile())
            gate.open()
            let answer = try await busy.readResponse()
            #expect(answer.body == "held")
            #expect(answer.headers["connection"] == "close")
            #expect(try await busy.readsEndOfFile())
        }
    }
}
