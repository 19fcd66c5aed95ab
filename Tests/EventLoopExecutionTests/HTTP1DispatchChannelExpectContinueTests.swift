import EventLoopExecution
import Hummingbird
import NIOCore
import PassgateTestSupport
import Testing

/// `Expect: 100-continue` on real loopback connections: the client holds its body back until the
/// server asks for it, so every test here sends the head first and the body only when told.
@Suite struct HTTP1DispatchChannelExpectContinueTests {
    static let limited = HTTP1DispatchChannel.Configuration(maxRequestBodyBytes: { 16 })

    @Test func aRequestThatExpectsContinueIsAskedForItsBodyAndThenAnswered() async throws {
        try await DispatchServer.with(router: HTTP1DispatchChannelTests.router()) { port, _ in
            let socket = try LoopbackSocket(port: port)
            for _ in 0..<2 {  // and the connection goes on as usual
                try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\n")
                let interim = try await socket.readResponse()
                #expect(interim.status == 100)
                #expect(interim.body.isEmpty)
                try socket.send("hello")
                let answer = try await socket.readResponse()
                #expect(answer.status == 200)
                #expect(answer.body == "hello")
            }
        }
    }

    @Test func aChunkedBodyThatExpectsContinueIsAskedForToo() async throws {
        try await DispatchServer.with(router: HTTP1DispatchChannelTests.router()) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n")
            #expect(try await socket.readResponse().status == 100)
            try socket.send("5\r\nhello\r\n0\r\n\r\n")
            #expect(try await socket.readResponse().body == "hello")
        }
    }

    @Test func aBodyDeclaredOverTheLimitIsAnsweredWithoutBeingSentAndTheConnectionCloses() async throws {
        try await DispatchServer.with(router: HTTP1DispatchChannelTests.router(), configuration: Self.limited) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("POST /size HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 17\r\n\r\n")
            // The responder's own answer for a body over the limit, given without the body.
            let answer = try await socket.readResponse()
            #expect(answer.status == 200)
            #expect(answer.body == "too large over 16")
            #expect(answer.headers["connection"] == "close")
            #expect(try await socket.readsEndOfFile())
        }
    }

    @Test func aBodyWithinTheLimitIsAskedForAtTheLimit() async throws {
        try await DispatchServer.with(router: HTTP1DispatchChannelTests.router(), configuration: Self.limited) { port, _ in
            let socket = try LoopbackSocket(port: port)
            try socket.send("POST /size HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 16\r\n\r\n")
            #expect(try await socket.readResponse().status == 100)
            try socket.send(String(repeating: "x", count: 16))
            #expect(try await socket.readResponse().body == "16")
        }
    }

    @Test func http10AndRequestsWithoutABodyGetNoInterimAnswer() async throws {
        try await DispatchServer.with(router: HTTP1DispatchChannelTests.router()) { port, _ in
            // Had a 100 been written, it would be the first answer read.
            let old = try LoopbackSocket(port: port)
            try old.send("POST /echo HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello")
            let oldAnswer = try await old.readResponse()
            #expect(oldAnswer.status == 200)
            #expect(oldAnswer.body == "hello")
            let bodiless = try LoopbackSocket(port: port)
            try bodiless.send("GET /hello HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n")
            #expect(try await bodiless.readResponse().body == "hello")
        }
    }
}
