public import NIOCore

/// The one timer of a connection, as a state machine: the connection's owner tells it what
/// happened (a read ended, a head or a whole request was read, a responder started, an answer was
/// written, the timer fired) and does what it answers (arm the timer, close, answer 408 and close).
///
/// The rules:
/// - while a responder runs, no limit applies: the client is waiting for the server, not the
///   other way round; the timer for what is being read is armed afresh once the answer is written;
/// - otherwise the limit is the one for what is being read: the head (from its first byte, or from
///   the accept for the first request), the body (from the end of the head), or nothing (the idle
///   limit between requests);
/// - a limit that passes with part of a request read closes with ``Action/answerAndClose(_:)``
///   (408); with nothing read, with ``Action/close(_:)``.
///
/// One deadline at a time, and a later one never needs the timer moved: the owner may keep a
/// timer that fires earlier, and when it fires ``timerFired(now:)`` says to arm it again for the
/// deadline now due. On a busy keep-alive connection the timer is then scheduled about once per
/// limit, not once per request.
public struct ConnectionDeadlines: Sendable {
    public enum Action: Equatable, Sendable {
        /// Nothing to do (a timer already armed may stay: when it fires, it is asked again).
        case none
        /// Have the timer fire at this deadline or earlier.
        case arm(NIODeadline)
        /// Close the connection without an answer: nothing of a request had been read.
        case close(ConnectionLimitReached)
        /// Answer 408 with `Connection: close` (if no earlier answer is still owed), then close.
        case answerAndClose(ConnectionLimitReached)
    }

    /// What is being read.
    public enum Reading: Equatable, Sendable {
        case nothing, head, body
    }

    private let limits: ConnectionLimits
    public private(set) var reading = Reading.nothing
    /// No request has been read whole yet: the head limit runs from the accept.
    private var firstRequest = true
    private var responding = false
    private var finished = false
    /// A request ended in the read now being processed (``readCompleted(now:)``).
    private var endedInThisRead = false
    /// When the limit that applies now passes; `nil` while a responder runs.
    public private(set) var deadline: NIODeadline?

    public init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// The connection was accepted.
    public mutating func opened(now: NIODeadline) -> Action {
        rearm(now: now)
    }

    /// A read from the socket ended. Bytes that formed no part of a request (a head not yet
    /// whole) begin one if none was being read. A read that also ended a request is taken as
    /// having begun nothing: the next request's head, if part of it came in the same read, gets
    /// the idle limit until more of it comes.
    public mutating func readCompleted(now: NIODeadline) -> Action {
        defer { endedInThisRead = false }
        guard reading == .nothing, !endedInThisRead, !finished else { return .none }
        reading = .head
        // The first request's head limit runs from the accept; a later one's from its first byte.
        return firstRequest ? .none : rearm(now: now)
    }

    /// A request's head was read whole; its body (possibly empty) follows.
    public mutating func headReceived(now: NIODeadline) -> Action {
        guard !finished else { return .none }
        reading = .body
        return rearm(now: now)
    }

    /// A request was read whole (or answered from its head alone): nothing is being read.
    public mutating func requestReceived(now: NIODeadline) -> Action {
        guard !finished else { return .none }
        reading = .nothing
        firstRequest = false
        endedInThisRead = true
        return rearm(now: now)
    }

    /// A request was handed to its responder: no limit runs until its answer is written.
    public mutating func responderStarted() -> Action {
        responding = true
        deadline = nil
        return .none
    }

    /// The responder's answer was written and the connection stays open.
    public mutating func answerWritten(now: NIODeadline) -> Action {
        responding = false
        return rearm(now: now)
    }

    /// The timer fired: close if the limit has passed, else say when to fire again.
    public mutating func timerFired(now: NIODeadline) -> Action {
        guard let deadline, !finished else { return .none }
        guard now >= deadline else { return .arm(deadline) }
        finished = true
        self.deadline = nil
        switch reading {
        case .nothing: return .close(firstRequest ? .headTimeout : .idleTimeout)
        case .head: return .answerAndClose(.headTimeout)
        case .body: return .answerAndClose(.bodyTimeout)
        }
    }

    private mutating func rearm(now: NIODeadline) -> Action {
        guard !responding, !finished else {
            deadline = nil
            return .none
        }
        let limit = switch reading {
        case .nothing: firstRequest ? limits.headTimeout : limits.idleTimeout
        case .head: limits.headTimeout
        case .body: limits.bodyTimeout
        }
        let due = now + limit
        deadline = due
        return .arm(due)
    }
}
