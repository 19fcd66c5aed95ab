import OpenSSLCrypto
import PassgateConfig
import PassgateConsole
import PassgateCore
import Synchronization

/// Runs the console's `ConsoleSessionStateMachine`: makes the random session ids and CSRF tokens,
/// reads the clock, and keeps the machine under a lock. The browser holds the id (the cookie);
/// the machine knows each session only by the id's SHA-256, so a session table that leaked into
/// a log or a dump would not sign anyone in.
final class ConsoleSessions: Sendable {
    /// The session cookie's name.
    static let cookieName = "passgate_console"

    /// The cookie's `Max-Age`: the absolute limit, after which the server has ended the session anyway.
    let maxAgeSeconds: Int
    private let machine: Mutex<ConsoleSessionStateMachine>
    private let clock: any PassgateClock

    init(settings: AdminSettings, clock: any PassgateClock) {
        maxAgeSeconds = settings.consoleSessionMinutes * 60
        machine = Mutex(ConsoleSessionStateMachine(limits: .init(
            idleMs: Int64(settings.consoleIdleMinutes) * 60_000, absoluteMs: Int64(settings.consoleSessionMinutes) * 60_000,
            maxSessions: settings.consoleMaxSessions)))
        self.clock = clock
    }

    /// A new session: the id for the cookie (shown to nothing else) and the session.
    func signIn() throws -> (id: String, session: ConsoleSessionStateMachine.Session) {
        let id = Hex.lowercase(try SecureRandom.bytes(count: 32))
        let csrf = Hex.lowercase(try SecureRandom.bytes(count: 32))
        let key = try Self.key(id)
        let now = clock.monotonicMilliseconds()
        let (session, _) = machine.withLock { $0.signIn(key: key, csrf: csrf, nowMs: now) }
        return (id, session)
    }

    /// The session of the cookie's `id`, seen now (`.unknown` without a cookie).
    func lookUp(_ id: String?) -> ConsoleSessionStateMachine.Lookup {
        guard let id, let key = try? Self.key(id) else { return .unknown }
        let now = clock.monotonicMilliseconds()
        return machine.withLock { $0.touch(key: key, nowMs: now) }
    }

    /// Ends the cookie's session, if any.
    func signOut(_ id: String?) {
        guard let id, let key = try? Self.key(id) else { return }
        _ = machine.withLock { $0.signOut(key: key) }
    }

    /// Whether a form's `csrf` field is `session`'s token, compared in constant time.
    static func csrfMatches(_ session: ConsoleSessionStateMachine.Session, _ given: String?) -> Bool {
        guard let given else { return false }
        return constantTimeEquals(Array(session.csrf.utf8), Array(given.utf8))
    }

    private static func key(_ id: String) throws -> String {
        Hex.lowercase(try Digest.sha256(Array(id.utf8)))
    }
}
