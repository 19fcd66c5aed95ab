@testable import EventLoopExecution
import Hummingbird
import NIOCore
import NIOEmbedded
import Testing

/// ``HTTP1DispatchHandler`` on in-process connections (`NIOAsyncTestingChannel`): the NIO events a
/// socket would bring (reads, writability, half-close, the server's quiescing, the connection
/// going away) are fired by hand, so what the handler does with each is seen without waiting for
/// a socket. Requests are held by a ``Gate`` where a test needs one answered later than others.
/// An answer that never comes fails the test at the time limit instead of hanging the run.
@Suite(.timeLimit(.minutes(1))) struct HTTP1DispatchHandlerTests {
    /// Answers each request with its path (and its body, if any); requests to a path in `held`
    /// wait for `gate`.
    static func dispatch(holding held: Set<String> = [], gate: Gate = Gate()) -> HTTP1DispatchChannel {
        TestConnection.dispatch(.init(serverName: "dispatch-test")) { request, _ in
            if held.contains(request.uri.path) { await gate.hold() }
            let body = (try? await request.body.collect(upTo: 1 << 20)).map { String(buffer: $0) } ?? ""
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: request.uri.path + body)))
        }
    }

    static func get(_ path: String) -> String { "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n" }

    @Test func pipelinedRequestsAreAnsweredInTheOrderTheyCame() async throws {
        let gate = Gate()
        let connection = try await TestConnection.open(Self.dispatch(holding: ["/1"], gate: gate))
        try await connection.send(Self.get("/1") + Self.get("/2") + Self.get("/3"))
        try await gate.waitUntilHeld(1)
        gate.open()
        for path in ["/1", "/2", "/3"] {
            let answer = try await connection.answer()
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.hasSuffix("\r\n\r\n\(path)"), "\(answer)")
        }
        #expect(connection.isOpen)
        try await connection.finish()
    }

    @Test func aReadIsHeldWhileTheMostRequestsWaitAndIssuedWhenOneStarts() async throws {
        let gate = Gate()
        let connection = try await TestConnection.open(Self.dispatch(holding: ["/held"], gate: gate))
        let waiting = HTTP1DispatchStateMachine.maxPendingRequests
        try await connection.send(Self.get("/held") + String(repeating: Self.get("/next"), count: waiting))
        try await connection.askToRead()
        #expect(connection.reads.reads == 0, "\(waiting) wait: the socket is not read")
        try await gate.waitUntilHeld(1)
        gate.open()
        #expect(try await connection.answer().hasSuffix("/held"))
        await connection.loop.run()
        #expect(connection.reads.reads == 1, "one started: the held read goes")
        for _ in 0..<waiting { #expect(try await connection.answer().hasSuffix("/next")) }
        try await connection.finish()
    }

    @Test func aClientThatDoesNotReadItsAnswersHoldsBackItsRequestsAndTheReads() async throws {
        let connection = try await TestConnection.open(Self.dispatch())
        try await connection.setWritable(false)
        try await connection.send(Self.get("/1") + Self.get("/2"))
        try await connection.askToRead()
        #expect(connection.reads.reads == 0)
        try await connection.setWritable(true)
        #expect(connection.reads.reads == 1)
        #expect(try await connection.answer().hasSuffix("/1"))
        #expect(try await connection.answer().hasSuffix("/2"))
        try await connection.finish()
    }

    @Test func aChunkedBodyIsCollectedWholeAcrossReads() async throws {
        let connection = try await TestConnection.open(Self.dispatch())
        try await connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
        try await connection.send("6\r\n world\r\n0\r\n\r\n")
        #expect(try await connection.answer().hasSuffix("\r\n\r\n/echohello world"))
        try await connection.finish()
    }

    @Test func malformedBytesBehindARequestLetItsAnswerGoOutFirstThenTheConnectionCloses() async throws {
        let gate = Gate()
        let connection = try await TestConnection.open(Self.dispatch(holding: ["/1"], gate: gate))
        try await connection.send(Self.get("/1") + "GET /hello HTTP/1.1\r\nHost x\r\nBroken\r\n\r\nmore")
        try await gate.waitUntilHeld(1)
        #expect(try await connection.written() == nil, "a 400 now would be read as the answer to /1")
        gate.open()
        let answer = try await connection.answer()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.contains("Connection: close\r\n") && answer.hasSuffix("/1"))
        await connection.loop.run()
        #expect(!connection.isOpen)
        #expect(try await connection.written() == nil)
    }

    @Test func theInterimAnswerOfAPipelinedRequestWaitsForTheAnswersBeforeIt() async throws {
        let gate = Gate()
        let connection = try await TestConnection.open(Self.dispatch(holding: ["/1"], gate: gate))
        try await connection.send(Self.get("/1") + "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        try await gate.waitUntilHeld(1)
        #expect(try await connection.written() == nil, "a 100 now would be read as the answer to /1")
        gate.open()
        #expect(try await connection.answer().hasSuffix("/1"))
        #expect(try await connection.answer() == "HTTP/1.1 100 Continue\r\n\r\n")
        try await connection.send("ok")
        #expect(try await connection.answer().hasSuffix("/echook"))
        try await connection.finish()
    }

    @Test func aHalfClosedConnectionIsClosedAfterTheAnswersItIsOwed() async throws {
        let gate = Gate()
        let connection = try await TestConnection.open(Self.dispatch(holding: ["/1"], gate: gate))
        try await connection.send(Self.get("/1"))
        try await connection.fire(ChannelEvent.inputClosed)
        #expect(connection.isOpen)
        try await gate.waitUntilHeld(1)
        gate.open()
        #expect(try await connection.answer().contains("Connection: close\r\n"))
        await connection.loop.run()
        #expect(!connection.isOpen)

        let idle = try await TestConnection.open(Self.dispatch())
        try await idle.fire(ChannelEvent.inputClosed)
        #expect(!idle.isOpen, "nothing owed: closed at once")
    }

    @Test func aGracefulShutdownClosesIdleConnectionsAtOnceAndBusyOnesAfterTheirAnswer() async throws {
        let gate = Gate()
        let dispatch = Self.dispatch(holding: ["/1"], gate: gate)
        let loop = NIOAsyncTestingEventLoop()
        let idle = try await TestConnection.open(dispatch, loop: loop)
        let busy = try await TestConnection.open(dispatch, loop: loop)
        try await busy.send(Self.get("/1") + Self.get("/2"))
        try await gate.waitUntilHeld(1)
        for connection in [idle, busy] { try await connection.fire(ChannelShouldQuiesceEvent()) }
        #expect(!idle.isOpen)
        #expect(busy.isOpen)
        gate.open()
        #expect(try await busy.answer().contains("Connection: close\r\n"))
        await loop.run()
        #expect(!busy.isOpen)
        #expect(try await busy.written() == nil, "the request waiting behind it never started")
        let finished = await busy.hasFinished()
        #expect(finished)
    }

    @Test func aRequestWhoseClientLeftRunsToItsEndBeforeTheConnectionFinishes() async throws {
        let gate = Gate()
        let connection = try await TestConnection.open(Self.dispatch(holding: ["/spend"], gate: gate))
        try await connection.send(Self.get("/spend"))
        try await gate.waitUntilHeld(1)
        try await connection.channel.close()
        let finishedEarly = await connection.hasFinished()
        #expect(!finishedEarly, "its token may be spent: the server's shutdown waits for it")
        gate.open()
        try await connection.finished.get()
        #expect(try await connection.written() == nil)
    }
}
