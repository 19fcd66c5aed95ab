@testable import EventLoopExecution
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

/// ``HTTP1DispatchStateMachine`` driven event by event, with made-up times: no channel, no loop.
@Suite struct HTTP1DispatchStateMachineTests {
    typealias Machine = HTTP1DispatchStateMachine
    static let limits = ConnectionLimits(headTimeout: .seconds(10), bodyTimeout: .seconds(20), idleTimeout: .seconds(75))
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    static func at(_ seconds: Int64) -> NIODeadline { start + .seconds(seconds) }

    static func head(_ uri: String, _ headers: HTTPHeaders = [:], version: HTTPVersion = .http1_1, method: HTTPMethod = .GET) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: method, uri: uri, headers: headers)
    }

    /// A connection opened at 0.
    static func opened() -> Machine {
        var machine = Machine(limits: limits)
        _ = machine.opened(now: at(0))
        return machine
    }

    /// Reads a whole bodiless request at `now`; what the machine answers to its end.
    static func read(_ machine: inout Machine, _ uri: String, _ headers: HTTPHeaders = [:], now: NIODeadline = at(0)) -> Machine.Actions {
        _ = machine.headReceived(head(uri, headers), bodyLimit: 16, now: now)
        return machine.endReceived(now: now)
    }

    /// Writes the answer being prepared, as the handler does; whether it kept the connection, and
    /// what followed.
    static func answer(_ machine: inout Machine, keepAlive: Bool = true, draining: Bool = false, now: NIODeadline = at(1))
        -> (action: Machine.AnswerAction, then: Machine.Actions)
    {
        let action = machine.answerReady(keepAlive: keepAlive, closesConnections: draining)
        return (action, machine.answerFinished(now: now))
    }

    // MARK: Pipelining

    @Test func pipelinedRequestsStartOneAtATimeInTheOrderTheyCame() {
        var machine = Self.opened()
        #expect(Self.read(&machine, "/1").start?.head.uri == "/1")
        #expect(Self.read(&machine, "/2").start == nil, "the first is being answered")
        #expect(Self.read(&machine, "/3").start == nil)
        #expect(machine.pendingCount == 2)
        #expect(Self.answer(&machine).then.start?.head.uri == "/2")
        #expect(Self.answer(&machine).then.start?.head.uri == "/3")
        #expect(Self.answer(&machine).then.start == nil)
        #expect(machine.answersAllWritten)
    }

    @Test func readingPausesWhileTheMostRequestsWaitAndAHeldReadGoesWhenOneStarts() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/answering")
        for index in 0..<Machine.maxPendingRequests {
            let reads = machine.readRequested()
            #expect(reads, "\(index) wait")
            _ = Self.read(&machine, "/\(index)")
        }
        let readsWhenFull = machine.readRequested()
        #expect(!readsWhenFull, "held with \(Machine.maxPendingRequests) waiting")
        let next = Self.answer(&machine).then
        #expect(next.start?.head.uri == "/0")
        #expect(next.read, "the held read is issued once one fewer waits")
        let readsAgain = machine.readRequested()
        #expect(readsAgain)
    }

    @Test func aSocketThatCannotTakeMoreHoldsBackTheNextRequestAndReadingUntilItCan() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/1")
        _ = Self.read(&machine, "/2")
        #expect(machine.writabilityChanged(isWritable: false) == .none)
        #expect(Self.answer(&machine).then.start == nil, "its answer would pile up unread")
        let reads = machine.readRequested()
        #expect(!reads)
        let writable = machine.writabilityChanged(isWritable: true)
        #expect(writable.start?.head.uri == "/2")
        #expect(writable.read)
    }

    // MARK: Bodies and 100-continue

    @Test func aBodyIsCollectedAcrossItsPartsUpToTheLimit() {
        var machine = Self.opened()
        _ = machine.headReceived(Self.head("/echo", ["content-length": "11"], method: .POST), bodyLimit: 11, now: Self.at(0))
        machine.bodyReceived(ByteBuffer(string: "hello"))
        machine.bodyReceived(ByteBuffer(string: " world"))
        #expect(machine.endReceived(now: Self.at(0)).start?.body == .collected(ByteBuffer(string: "hello world")))
    }

    @Test func aBodyOverTheLimitIsDroppedAndTheRequestStillGoesToItsResponder() {
        var machine = Self.opened()
        _ = machine.headReceived(Self.head("/echo", method: .POST), bodyLimit: 8, now: Self.at(0))
        machine.bodyReceived(ByteBuffer(string: "hello"))
        machine.bodyReceived(ByteBuffer(string: "world"))
        machine.bodyReceived(ByteBuffer(string: "!"))
        #expect(machine.endReceived(now: Self.at(0)).start?.body == .tooLarge(limit: 8))
    }

    @Test func continueIsAskedForAtOnceWhenNoEarlierAnswerIsOwed() {
        var machine = Self.opened()
        let actions = machine.headReceived(Self.head("/echo", ["expect": "100-continue", "content-length": "5"]), bodyLimit: 16, now: Self.at(0))
        #expect(actions.writeContinue)
        let askedAgain = machine.continueIfDue()
        #expect(!askedAgain, "once")
    }

    @Test func continueWaitsForTheAnswersBeforeIt() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/slow")
        let actions = machine.headReceived(Self.head("/echo", ["expect": "100-continue", "content-length": "5"]), bodyLimit: 16, now: Self.at(0))
        #expect(!actions.writeContinue, "it would be read as the slow request's answer")
        #expect(Self.answer(&machine).then.writeContinue)
    }

    @Test func aBodySentWithoutWaitingIsNotAskedForAnyMore() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/slow")
        _ = machine.headReceived(Self.head("/echo", ["expect": "100-continue", "content-length": "5"]), bodyLimit: 16, now: Self.at(0))
        machine.bodyReceived(ByteBuffer(string: "hel"))
        #expect(!Self.answer(&machine).then.writeContinue)
    }

    @Test func aBodyDeclaredOverTheLimitIsAnsweredFromTheHeadAndClosesTheConnection() {
        var machine = Self.opened()
        let headers: HTTPHeaders = ["expect": "100-continue", "content-length": "17"]
        let actions = machine.headReceived(Self.head("/size", headers, method: .POST), bodyLimit: 16, now: Self.at(0))
        #expect(!actions.writeContinue)
        #expect(actions.start?.body == .tooLarge(limit: 16))
        #expect(actions.start?.head.headers["connection"] == ["close"])
        machine.bodyReceived(ByteBuffer(string: "sent anyway"))
        #expect(machine.endReceived(now: Self.at(0)) == .none, "what follows is dropped")
    }

    @Test func http10AndBodilessRequestsAreNotAskedForTheirBody() {
        let expect: HTTPHeaders = ["expect": "100-continue", "content-length": "5"]
        #expect(Machine.expectation(of: Self.head("/", expect, version: .http1_0), bodyLimit: 16) == .none)
        #expect(Machine.expectation(of: Self.head("/", ["expect": "100-continue"]), bodyLimit: 16) == .none)
        #expect(Machine.expectation(of: Self.head("/", ["expect": "100-Continue", "transfer-encoding": "chunked"]), bodyLimit: 16) == .continue)
    }

    // MARK: Closing after an answer

    @Test func anAnswerThatClosesTheConnectionStartsNothingAfterIt() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/1")
        _ = Self.read(&machine, "/2")
        let answered = Self.answer(&machine, keepAlive: false)
        #expect(answered.action == .write(keepAlive: false))
        #expect(answered.then == .none)
        #expect(machine.phase == .closing)
        #expect(Self.read(&machine, "/3") == .none)
    }

    @Test func whileDrainingEveryAnswerClosesAndTheDrainIsAskedOnlyWhenItDecides() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/1")
        var asked = 0
        #expect(machine.answerReady(keepAlive: false, closesConnections: { asked += 1; return true }()) == .write(keepAlive: false))
        #expect(asked == 0)
        var draining = Self.opened()
        _ = Self.read(&draining, "/1")
        #expect(Self.answer(&draining, draining: true).action == .write(keepAlive: false))
    }

    @Test func aHalfClosedConnectionClosesAtOnceWhenNothingIsOwed() {
        var machine = Self.opened()
        let closes = machine.inputClosed().close
        #expect(closes)
    }

    @Test func aHalfClosedConnectionIsClosedByItsLastAnswer() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/1")
        _ = Self.read(&machine, "/2")
        let closesNow = machine.inputClosed().close
        #expect(!closesNow)
        #expect(Self.answer(&machine).action == .write(keepAlive: true), "a request still waits")
        #expect(Self.answer(&machine).action == .write(keepAlive: false))
    }

    // MARK: Quiescing

    @Test func quiescingClosesAnIdleConnectionAtOnce() {
        var machine = Self.opened()
        let closes = machine.quiesce().close
        #expect(closes)
    }

    @Test func quiescingLetsTheAnswerInFlightCloseTheConnectionAndDropsTheRequestsBehindIt() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/1")
        _ = Self.read(&machine, "/2")
        #expect(machine.quiesce() == .none)
        #expect(machine.pendingCount == 0)
        #expect(Self.read(&machine, "/3").start == nil, "read behind the answer in flight: never started")
        let answered = Self.answer(&machine)
        #expect(answered.action == .write(keepAlive: false))
        #expect(answered.then == .none)
    }

    @Test func quiescingAnswersARequestBeingReadWithConnectionClose() {
        var machine = Self.opened()
        _ = machine.headReceived(Self.head("/echo", method: .POST), bodyLimit: 16, now: Self.at(0))
        #expect(machine.quiesce() == .none)
        #expect(machine.endReceived(now: Self.at(0)).start?.head.uri == "/echo")
        #expect(Self.answer(&machine).action == .write(keepAlive: false))
    }

    // MARK: Malformed input

    @Test func malformedInputAloneIsAnswered400AndAHeadTooLarge431() {
        var machine = Self.opened()
        #expect(machine.parserError(headTooLarge: false) == .answerAndClose(.badRequest))
        #expect(machine.parserError(headTooLarge: false) == .ignore, "once")
        #expect(machine.answerReady(keepAlive: false, closesConnections: false) == .write(keepAlive: false))
        var large = Self.opened()
        #expect(large.parserError(headTooLarge: true) == .answerAndClose(.requestHeaderFieldsTooLarge))
    }

    @Test func malformedInputBehindRequestsLetsTheirAnswersGoFirstAndTheLastCloses() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/1")
        _ = Self.read(&machine, "/2")
        #expect(machine.parserError(headTooLarge: false) == .closeAfterAnswers)
        #expect(Self.answer(&machine).action == .write(keepAlive: true))
        #expect(Self.answer(&machine).action == .write(keepAlive: false))
    }

    // MARK: Time limits

    @Test func noLimitRunsWhileAResponderHasTheRequest() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/slow")
        #expect(machine.deadlines.deadline == nil)
        #expect(machine.timerFired(now: Self.at(600)) == .none)
        #expect(Self.answer(&machine, now: Self.at(600)).then.arm == Self.at(675), "then the idle limit")
    }

    @Test func aHeadThatStopsComingIsAnswered408WhenNothingElseIsOwed() {
        var machine = Self.opened()
        _ = machine.readCompleted(now: Self.at(1))
        #expect(machine.timerFired(now: Self.at(10)) == .answerAndClose(.headTimeout))
        #expect(machine.answering, "the 408 is the connection's answer")
    }

    @Test func aLimitThatPassesWithAnAnswerStillOwedClosesWithoutA408() {
        // A client that sends requests and never reads the answers: one waits, none is being
        // answered, and a 408 would be read as the waiting one's answer.
        var machine = Self.opened()
        _ = machine.writabilityChanged(isWritable: false)
        _ = Self.read(&machine, "/1")
        _ = machine.headReceived(Self.head("/2", method: .POST), bodyLimit: 16, now: Self.at(1))
        #expect(machine.timerFired(now: Self.at(21)) == .close(.bodyTimeout))
    }

    @Test func aConnectionThatSendsNothingIsClosedWithoutAnAnswer() {
        var machine = Self.opened()
        #expect(machine.timerFired(now: Self.at(9)) == .arm(Self.at(10)))
        #expect(machine.timerFired(now: Self.at(10)) == .close(.headTimeout))
    }

    // MARK: The connection gone

    @Test func aConnectionGoneWhileIdleFinishesAtOnce() {
        var machine = Self.opened()
        let finishes = machine.handlerRemoved().finish
        #expect(finishes)
        #expect(machine.readCompleted(now: Self.at(1)) == .none, "nothing is armed once it is gone")
    }

    @Test func aConnectionGoneMidAnswerFinishesWhenTheAnswerComesAndDropsIt() {
        var machine = Self.opened()
        _ = Self.read(&machine, "/spend")
        _ = Self.read(&machine, "/waiting")
        #expect(machine.handlerRemoved() == .none, "its token may be spent: the answer is waited for")
        #expect(machine.answerReady(keepAlive: true, closesConnections: false) == .drop)
        let finished = machine.answerFinished(now: Self.at(1))
        #expect(finished.finish)
        #expect(finished.start == nil, "the waiting request never starts")
    }

    @Test func aFailedConnectionIsClosed() {
        var machine = Self.opened()
        let closes = machine.connectionFailed().close
        #expect(closes)
    }
}
