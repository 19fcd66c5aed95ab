/// The console's signed-in sessions: who is signed in, since when, last seen when, and each
/// session's CSRF token. A value type taking events (sign in, touch, sign out, expire) with the
/// time they happen at; its owner keeps it under a lock and reads the clock.
///
/// A session ends after `idleMs` without a request, or `absoluteMs` after sign-in however active.
/// At most `maxSessions` live at once: a sign-in beyond that first drops the expired ones, then
/// the one idle longest, so a forgotten browser never locks the operator out.
public struct ConsoleSessionStateMachine: Sendable {
    /// The limits, from `admin.console*` (docs/configuration.md).
    public struct Limits: Sendable, Equatable {
        public var idleMs: Int64
        public var absoluteMs: Int64
        public var maxSessions: Int

        public init(idleMs: Int64, absoluteMs: Int64, maxSessions: Int) {
            self.idleMs = idleMs
            self.absoluteMs = absoluteMs
            self.maxSessions = maxSessions
        }
    }

    /// One session. `key` is what the owner looks the session up by (a digest of the cookie's id,
    /// never the id itself); `csrf` goes into every form the session is shown.
    public struct Session: Sendable, Equatable {
        public let key: String
        public let csrf: String
        public let signedInMs: Int64
        public fileprivate(set) var lastSeenMs: Int64
    }

    /// What a request's session turned out to be.
    public enum Lookup: Sendable, Equatable {
        /// Signed in; `lastSeenMs` is now.
        case active(Session)
        /// It was, and has expired (idle or absolute); it is gone now.
        case expired
        /// No such session (never was, signed out, or evicted).
        case unknown
    }

    public let limits: Limits
    private var sessions: [String: Session] = [:]

    public init(limits: Limits) {
        self.limits = limits
    }

    /// Sessions held now (expired ones included until an event removes them).
    public var count: Int { sessions.count }

    /// A new session under `key` with `csrf`; returns the key of a session evicted to make room.
    public mutating func signIn(key: String, csrf: String, nowMs: Int64) -> (session: Session, evicted: String?) {
        expire(nowMs: nowMs)
        var evicted: String?
        if sessions.count >= limits.maxSessions, let idlest = sessions.values.min(by: { $0.lastSeenMs < $1.lastSeenMs }) {
            sessions[idlest.key] = nil
            evicted = idlest.key
        }
        let session = Session(key: key, csrf: csrf, signedInMs: nowMs, lastSeenMs: nowMs)
        sessions[key] = session
        return (session, evicted)
    }

    /// A request came with `key`: the session, seen now, unless it expired.
    public mutating func touch(key: String, nowMs: Int64) -> Lookup {
        guard var session = sessions[key] else { return .unknown }
        guard !isExpired(session, nowMs: nowMs) else {
            sessions[key] = nil
            return .expired
        }
        session.lastSeenMs = nowMs
        sessions[key] = session
        return .active(session)
    }

    /// Ends the session under `key`; false when there was none.
    @discardableResult
    public mutating func signOut(key: String) -> Bool {
        sessions.removeValue(forKey: key) != nil
    }

    /// Drops every expired session; returns how many.
    @discardableResult
    public mutating func expire(nowMs: Int64) -> Int {
        let before = sessions.count
        sessions = sessions.filter { !isExpired($0.value, nowMs: nowMs) }
        return before - sessions.count
    }

    private func isExpired(_ session: Session, nowMs: Int64) -> Bool {
        nowMs - session.lastSeenMs >= limits.idleMs || nowMs - session.signedInMs >= limits.absoluteMs
    }
}
