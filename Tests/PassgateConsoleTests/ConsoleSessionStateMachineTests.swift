import PassgateConsole
import Testing

@Suite("console session state machine")
struct ConsoleSessionStateMachineTests {
    static let limits = ConsoleSessionStateMachine.Limits(idleMs: 1_000, absoluteMs: 5_000, maxSessions: 2)

    @Test("a signed-in session is active when touched, with its CSRF token, and each touch resets the idle time")
    func touchKeepsSessionAlive() {
        var machine = ConsoleSessionStateMachine(limits: Self.limits)
        _ = machine.signIn(key: "a", csrf: "token-a", nowMs: 0)
        for now in stride(from: Int64(900), through: 4_500, by: 900) {
            guard case .active(let session) = machine.touch(key: "a", nowMs: now) else {
                Issue.record("session ended at \(now) ms although touched every 900 ms")
                return
            }
            #expect(session.csrf == "token-a" && session.lastSeenMs == now)
        }
    }

    @Test("a session idle for idleMs has expired and is gone afterwards")
    func idleExpiry() {
        var machine = ConsoleSessionStateMachine(limits: Self.limits)
        _ = machine.signIn(key: "a", csrf: "t", nowMs: 0)
        #expect(machine.touch(key: "a", nowMs: 999) != .expired)
        #expect(machine.touch(key: "a", nowMs: 1_999) == .expired)
        #expect(machine.touch(key: "a", nowMs: 2_000) == .unknown)
        #expect(machine.count == 0)
    }

    @Test("a session ends absoluteMs after sign-in however active")
    func absoluteExpiry() {
        var machine = ConsoleSessionStateMachine(limits: Self.limits)
        _ = machine.signIn(key: "a", csrf: "t", nowMs: 0)
        for now in stride(from: Int64(500), to: 5_000, by: 500) {
            #expect(machine.touch(key: "a", nowMs: now) != .expired)
        }
        #expect(machine.touch(key: "a", nowMs: 5_000) == .expired)
    }

    @Test("signing out ends the session; an unknown key is unknown")
    func signOut() {
        var machine = ConsoleSessionStateMachine(limits: Self.limits)
        _ = machine.signIn(key: "a", csrf: "t", nowMs: 0)
        let first = machine.signOut(key: "a"), second = machine.signOut(key: "a")
        #expect(first && !second)
        #expect(machine.touch(key: "a", nowMs: 1) == .unknown)
        #expect(machine.touch(key: "never", nowMs: 1) == .unknown)
    }

    @Test("at the cap, a sign-in drops expired sessions first, then the one idle longest")
    func capEvictsIdlest() {
        var machine = ConsoleSessionStateMachine(limits: Self.limits)
        _ = machine.signIn(key: "a", csrf: "t", nowMs: 0)
        _ = machine.signIn(key: "b", csrf: "t", nowMs: 100)
        _ = machine.touch(key: "a", nowMs: 200)
        let third = machine.signIn(key: "c", csrf: "t", nowMs: 300)
        #expect(third.evicted == "b" && machine.count == 2)
        #expect(machine.touch(key: "b", nowMs: 301) == .unknown)
        // "a" and "c" idle past the limit: both are dropped as expired, nobody is evicted.
        let fourth = machine.signIn(key: "d", csrf: "t", nowMs: 1_400)
        #expect(fourth.evicted == nil && machine.count == 1)
    }

    @Test("expire removes exactly the sessions past a limit")
    func expireSweeps() {
        var machine = ConsoleSessionStateMachine(limits: .init(idleMs: 1_000, absoluteMs: 5_000, maxSessions: 10))
        _ = machine.signIn(key: "a", csrf: "t", nowMs: 0)
        _ = machine.signIn(key: "b", csrf: "t", nowMs: 600)
        let expired = machine.expire(nowMs: 1_000)
        #expect(expired == 1)
        #expect(machine.count == 1 && machine.touch(key: "b", nowMs: 1_001) != .unknown)
    }
}
