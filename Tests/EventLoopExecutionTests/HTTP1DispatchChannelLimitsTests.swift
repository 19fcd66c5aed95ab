import EventLoopExecution
import Hummingbird
import NIOCore
import NIOEmbedded
import Testing

/// ``ConnectionLimits`` on ``HTTP1DispatchChannel`` connections driven in-process, the loop's
/// clock moved by hand.
@Suite struct HTTP1DispatchChannelLimitsTests {
    static let limits = ConnectionLimits(
        headTimeout: .seconds(10), bodyTimeout: .seconds(20), idleTimeout: .seconds(75), maxConnections: 3, maxHeadBytes: 1024)

    static func configuration(_ log: LimitLog, closes: @escaping @Sendable () -> Bool = { false }) -> HTTP1DispatchChannel.Configuration {
        .init(limits: limits, closesConnections: closes, limitReached: { log.record($0) })
    }

    @Test func anUnfinishedHeadIsAnswered408AndClosedWhenTheHeadTimeoutPasses() async throws {
        let log = LimitLog()
        let connection = try await TestConnection.open(TestConnection.dispatch(Self.configuration(log)))
        try await connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        await connection.advance(by: .milliseconds(9_999))
        #expect(try await connection.written() == nil)
        #expect(connection.isOpen)
        await connection.advance(by: .milliseconds(1))
        let answer = try #require(try await connection.written())
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(answer.contains("Connection: close\r\n"))
        #expect(!connection.isOpen)
        #expect(log.reached == [.headTimeout])
    }

    @Test func aConnectionThatSendsNothingIsClosedSilentlyAfterTheHeadTimeout() async throws {
        let log = LimitLog()
        let connection = try await TestConnection.open(TestConnection.dispatch(Self.configuration(log)))
        await connection.advance(by: .seconds(10))
        #expect(try await connection.written() == nil)
        #expect(!connection.isOpen)
        #expect(log.reached == [.headTimeout])
    }

    @Test func aBodyThatStopsComingIsAnswered408WhenTheBodyTimeoutPasses() async throws {
        let log = LimitLog()
        let connection = try await TestConnection.open(TestConnection.dispatch(Self.configuration(log)))
        try await connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        await connection.advance(by: .seconds(19))
        #expect(connection.isOpen, "the body limit runs from the end of the head, not the accept")
        await connection.advance(by: .seconds(1))
        #expect(try #require(try await connection.written()).hasPrefix("HTTP/1.1 408 "))
        #expect(!connection.isOpen)
        #expect(log.reached == [.bodyTimeout])
    }

    @Test func anIdleKeepAliveConnectionIsClosedSilentlyWhenTheIdleTimeoutPasses() async throws {
        let log = LimitLog()
        let connection = try await TestConnection.open(TestConnection.dispatch(Self.configuration(log)))
        try await connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await connection.answer().hasPrefix("HTTP/1.1 200 OK\r\n"))
        await connection.advance(by: .seconds(74))
        #expect(connection.isOpen, "idle for less than the idle timeout (longer than the head timeout)")
        try await connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await connection.answer().hasPrefix("HTTP/1.1 200 OK\r\n"))
        await connection.advance(by: .seconds(75))
        #expect(try await connection.written() == nil)
        #expect(!connection.isOpen)
        #expect(log.reached == [.idleTimeout])
    }

    @Test func aRequestHandedToItsResponderIsAnsweredHoweverLongItTakes() async throws {
        let gate = Gate()
        let dispatch = TestConnection.dispatch(Self.configuration(LimitLog())) { _, _ in
            await gate.hold()
            return Response(status: .ok)
        }
        let connection = try await TestConnection.open(dispatch)
        try await connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        try await gate.waitUntilHeld(1)
        await connection.advance(by: .seconds(600))
        #expect(connection.isOpen)
        gate.open()
        #expect(try await connection.answer().hasPrefix("HTTP/1.1 200 OK\r\n"), "its token may be spent: never a 408")
        #expect(connection.isOpen)
        try await connection.finish()
    }

    @Test func aHeadOverTheLimitIsAnswered431AndClosed() async throws {
        let log = LimitLog()
        let dispatch = TestConnection.dispatch(Self.configuration(log))
        let within = try await TestConnection.open(dispatch)
        try await within.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Fill: \(String(repeating: "a", count: 900))\r\n\r\n")
        #expect(try await within.answer().hasPrefix("HTTP/1.1 200 OK\r\n"))

        let over = try await TestConnection.open(dispatch)
        try await over.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Fill: \(String(repeating: "a", count: 1100))")
        let answer = try await over.answer()
        #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "answered before the head ends")
        #expect(answer.contains("Connection: close\r\n"))
        #expect(!over.isOpen)
        #expect(log.reached == [.headTooLarge])
        try await within.finish()
    }

    @Test func aConnectionOverTheLimitIsClosedOnAcceptAndAFreedPlaceIsTakenAgain() async throws {
        let log = LimitLog()
        let dispatch = TestConnection.dispatch(Self.configuration(log))
        let loop = NIOAsyncTestingEventLoop()
        var open: [TestConnection] = []
        for _ in 0..<3 { open.append(try await TestConnection.open(dispatch, loop: loop)) }
        let refused = try await TestConnection.open(dispatch, loop: loop)
        #expect(!refused.isOpen)
        #expect(open.allSatisfy { $0.isOpen })
        #expect(log.reached == [.connections])
        #expect(dispatch.connections.current == 3)

        try await open[0].channel.close()
        let accepted = try await TestConnection.open(dispatch, loop: loop)
        try await accepted.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await accepted.answer().hasPrefix("HTTP/1.1 200 OK\r\n"))
        for connection in open + [accepted] { try await connection.finish() }
    }

    @Test func whileDrainingEveryAnswerSaysCloseAndTheConnectionCloses() async throws {
        let draining = DrainFlag()
        let connection = try await TestConnection.open(TestConnection.dispatch(Self.configuration(LimitLog(), closes: { draining.isOn })))
        try await connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let before = try await connection.answer()
        #expect(!before.contains("Connection: close"))
        #expect(connection.isOpen)
        draining.turnOn()
        try await connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let during = try await connection.answer()
        #expect(during.hasPrefix("HTTP/1.1 200 OK\r\n") && during.contains("Connection: close\r\n"), "\(during)")
        await connection.loop.run()
        #expect(!connection.isOpen)
    }

    /// Slow clients do not hold the listener: many connections with unfinished heads are all
    /// closed when the head timeout passes, while a client that sends whole requests is served
    /// meanwhile and keeps its connection.
    @Test func slowHeadsAreClosedWithinTheHeadTimeoutWhileANormalClientIsServed() async throws {
        let log = LimitLog()
        var limits = Self.limits
        limits.maxConnections = 1_000
        let dispatch = TestConnection.dispatch(.init(limits: limits, limitReached: { log.record($0) }))
        let loop = NIOAsyncTestingEventLoop()
        var slow: [TestConnection] = []
        for index in 0..<200 {
            let connection = try await TestConnection.open(dispatch, loop: loop)
            // Half stop inside their head, half send nothing at all.
            if index.isMultiple(of: 2) { try await connection.send("POST /v1/phone-number HTTP/1.1\r\nHost: x\r\nX-Pad: aaaa") }
            slow.append(connection)
        }
        let normal = try await TestConnection.open(dispatch, loop: loop)
        for _ in 0..<3 {
            await loop.advanceTime(by: .seconds(3))
            try await normal.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await normal.answer().hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
        #expect(slow.allSatisfy { $0.isOpen })
        await loop.advanceTime(by: .seconds(1))
        #expect(slow.filter { $0.isOpen }.isEmpty)
        #expect(normal.isOpen)
        #expect(log.reached.count == 200 && log.reached.allSatisfy { $0 == .headTimeout })
        #expect(dispatch.connections.current == 1)
        try await normal.finish()
    }
}
