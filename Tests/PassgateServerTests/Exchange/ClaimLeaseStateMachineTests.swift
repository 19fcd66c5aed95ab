import NIOCore
import Testing

@testable import PassgateServer

/// The lease renewal's bookkeeping, driven synchronously.
@Suite("claim lease state machine")
struct ClaimLeaseStateMachineTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    let lease = TimeAmount.milliseconds(3_000)

    @Test("renewals are due a third of a lease after the claim and after each renewal was sent, however late it was answered")
    func renewalSchedule() {
        var machine = ClaimLeaseStateMachine(lease: lease, claimedAt: start)
        #expect(machine.start == .schedule(start + .seconds(1)))
        #expect(machine.timerFired() == .renew)
        let sent = start + .seconds(1)
        #expect(machine.renewed(sentAt: sent, .renewed) == .schedule(sent + .seconds(1)))
        #expect(machine.liveUntil == sent + lease)
        #expect(machine.isLive(at: sent + .milliseconds(2_999)) && !machine.isLive(at: sent + lease))
    }

    @Test("a failed renewal is tried again after half the interval, and the known lease does not grow")
    func failedRenewal() {
        var machine = ClaimLeaseStateMachine(lease: lease, claimedAt: start)
        #expect(machine.timerFired() == .renew)
        #expect(machine.renewed(sentAt: start + .seconds(1), .failed) == .schedule(start + .milliseconds(1_500)))
        #expect(machine.liveUntil == start + lease)
        #expect(machine.timerFired() == .renew)
        #expect(machine.renewed(sentAt: start + .milliseconds(1_500), .renewed) == .schedule(start + .milliseconds(2_500)))
        #expect(machine.liveUntil == start + .milliseconds(4_500))
    }

    @Test("a renewal answered 'not yours' stops renewing; so does the end of the call, once")
    func stopping() {
        var lost = ClaimLeaseStateMachine(lease: lease, claimedAt: start)
        #expect(lost.timerFired() == .renew)
        #expect(lost.renewed(sentAt: start, .lost) == .none)
        #expect(lost.isStopped && !lost.isLive(at: start))
        #expect(lost.timerFired() == .none)

        var ended = ClaimLeaseStateMachine(lease: lease, claimedAt: start)
        let first = ended.stop(), second = ended.stop()
        #expect(first && !second)
        #expect(ended.timerFired() == .none)
    }

    @Test("a renewal answered after the call ended changes nothing; a timer firing while a renewal is out sends no second one")
    func lateEvents() {
        var machine = ClaimLeaseStateMachine(lease: lease, claimedAt: start)
        #expect(machine.timerFired() == .renew)
        #expect(machine.timerFired() == .none)
        let stopped = machine.stop()
        #expect(stopped)
        #expect(machine.renewed(sentAt: start + .seconds(1), .renewed) == .none)
        #expect(machine.liveUntil == start + lease)
    }
}
