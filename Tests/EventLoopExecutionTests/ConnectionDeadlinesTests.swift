import EventLoopExecution
import NIOCore
import Testing

/// ``ConnectionDeadlines`` driven event by event, with made-up times.
@Suite struct ConnectionDeadlinesTests {
    static let limits = ConnectionLimits(headTimeout: .seconds(10), bodyTimeout: .seconds(20), idleTimeout: .seconds(75))
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    static func at(_ seconds: Int64) -> NIODeadline { start + .seconds(seconds) }

    /// A connection whose first request, read whole in one read at 0, is with its responder.
    static func respondingToTheFirstRequest() -> ConnectionDeadlines {
        var machine = ConnectionDeadlines(limits: limits)
        _ = machine.opened(now: at(0))
        _ = machine.headReceived(now: at(0))
        _ = machine.responderStarted()
        _ = machine.requestReceived(now: at(0))
        _ = machine.readCompleted(now: at(0))
        return machine
    }

    @Test func theFirstHeadIsTimedFromTheAcceptNotFromItsFirstByte() {
        var machine = ConnectionDeadlines(limits: Self.limits)
        #expect(machine.opened(now: Self.at(0)) == .arm(Self.at(10)))
        #expect(machine.readCompleted(now: Self.at(9)) == .none)
        #expect(machine.reading == .head)
        #expect(machine.timerFired(now: Self.at(10)) == .answerAndClose(.headTimeout))
    }

    @Test func aConnectionThatSendsNothingIsClosedWithoutAnAnswer() {
        var machine = ConnectionDeadlines(limits: Self.limits)
        _ = machine.opened(now: Self.at(0))
        #expect(machine.timerFired(now: Self.at(10)) == .close(.headTimeout))
        #expect(machine.timerFired(now: Self.at(11)) == .none, "closes once")
    }

    @Test func aTimerThatFiresEarlyIsArmedAgainForTheDeadlineDueNow() {
        var machine = ConnectionDeadlines(limits: Self.limits)
        _ = machine.opened(now: Self.at(0))
        #expect(machine.headReceived(now: Self.at(5)) == .arm(Self.at(25)))
        #expect(machine.timerFired(now: Self.at(10)) == .arm(Self.at(25)))
        #expect(machine.timerFired(now: Self.at(25)) == .answerAndClose(.bodyTimeout))
    }

    @Test func noLimitRunsWhileAResponderRunsAndTheIdleLimitFollowsItsAnswer() {
        var machine = ConnectionDeadlines(limits: Self.limits)
        _ = machine.opened(now: Self.at(0))
        _ = machine.headReceived(now: Self.at(1))
        _ = machine.responderStarted()
        #expect(machine.requestReceived(now: Self.at(1)) == .none)
        #expect(machine.deadline == nil)
        #expect(machine.timerFired(now: Self.at(500)) == .none, "a carrier call may take its time")
        #expect(machine.answerWritten(now: Self.at(600)) == .arm(Self.at(675)))
        #expect(machine.timerFired(now: Self.at(675)) == .close(.idleTimeout))
    }

    @Test func aLaterHeadIsTimedFromItsFirstByte() {
        var machine = Self.respondingToTheFirstRequest()
        #expect(machine.reading == .nothing, "the read that ended a request begins none")
        _ = machine.answerWritten(now: Self.at(1))
        #expect(machine.readCompleted(now: Self.at(30)) == .arm(Self.at(40)))
        #expect(machine.reading == .head)
        #expect(machine.timerFired(now: Self.at(40)) == .answerAndClose(.headTimeout))
    }

    @Test func aPipelinedHeadBegunDuringAnAnswerIsTimedFromThatAnswer() {
        var machine = Self.respondingToTheFirstRequest()
        #expect(machine.readCompleted(now: Self.at(2)) == .none)
        #expect(machine.reading == .head)
        #expect(machine.answerWritten(now: Self.at(50)) == .arm(Self.at(60)))
    }

    @Test func aRequestReadButNotStartedLeavesTheIdleLimitRunning() {
        // A client that sends requests and never reads the answers: its requests wait, no
        // responder runs, and the idle limit closes it.
        var machine = ConnectionDeadlines(limits: Self.limits)
        _ = machine.opened(now: Self.at(0))
        _ = machine.headReceived(now: Self.at(0))
        #expect(machine.requestReceived(now: Self.at(1)) == .arm(Self.at(76)))
        #expect(machine.timerFired(now: Self.at(76)) == .close(.idleTimeout))
    }

    @Test func nothingIsArmedAfterTheConnectionTimedOut() {
        var machine = ConnectionDeadlines(limits: Self.limits)
        _ = machine.opened(now: Self.at(0))
        _ = machine.timerFired(now: Self.at(10))
        #expect(machine.headReceived(now: Self.at(11)) == .none)
        #expect(machine.requestReceived(now: Self.at(11)) == .none)
        #expect(machine.answerWritten(now: Self.at(11)) == .none)
        #expect(machine.readCompleted(now: Self.at(11)) == .none)
    }
}
