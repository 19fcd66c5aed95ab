import HTTPTypes
import NIOCore
import NIOHTTP1

/// The state of one ``HTTP1DispatchChannel`` connection, as a value: ``HTTP1DispatchHandler`` tells
/// it what happened (a head, a body part or an end was read, an answer is ready or written, the
/// client closed its side, the server quiesces, the socket's writability changed, a read is asked
/// for, the timer fired, the parser failed, the handler was removed) and does what it answers
/// (start a request, write `100 Continue`, write an answer of the connection's own and close, arm
/// the timer, issue a held read, close). It does no I/O and reads no clock: every event carries
/// what it needs, so the rules below are tested event by event (HTTP1DispatchStateMachineTests).
///
/// The rules:
/// - requests are read on while one is answered and wait in ``pending``, answered one at a time
///   in the order they came; reading pauses while ``maxPendingRequests`` wait or while the socket
///   cannot take more output, and no next request starts while it cannot;
/// - a body is collected up to the limit read with its head; past it, the rest is dropped and the
///   request still goes to its responder (which sees a body that fails);
/// - the connection closes after an answer when the request or the drain asks for it, when the
///   server quiesces, or when the client has closed its side (or sent bytes that are not HTTP)
///   and nothing it sent is left to answer;
/// - an interim or error answer of the connection's own (`100`, `400`, `431`, `408`) is written
///   only when no earlier answer is owed: written before one, it would reach a pipelining client
///   as that one's answer;
/// - the time limits are ``ConnectionDeadlines``', composed here: none while a responder runs.
///
/// Several things can follow one event (an answer written: arm the timer, start the next request,
/// issue a held read), so most events answer ``Actions``, a value with a field per kind of effect,
/// performed in the order of its fields; events that can have only one outcome answer an enum.
struct HTTP1DispatchStateMachine {
    /// Complete requests that may wait behind the one being answered before reading pauses.
    static let maxPendingRequests = 16

    /// A request read whole, waiting for its turn.
    struct Request: Equatable {
        var head: HTTPRequestHead
        var body: CollectedBody
    }

    /// A request's body as the responder will see it.
    enum CollectedBody: Equatable {
        case collected(ByteBuffer?)
        /// Longer than the limit read with its head: dropped, and reading it fails.
        case tooLarge(limit: Int)
    }

    /// What the connection is reading.
    enum Input: Equatable {
        /// Between requests (or a head not yet whole: NIO's decoder hands over heads whole).
        case idle
        /// A head was read; its body and end follow.
        case request(RequestBeingRead)
        /// The client closed its side (TCP half-close): nothing more comes.
        case ended
        /// The client sent bytes that are not HTTP: nothing after them is read as a request.
        case malformed
    }

    struct RequestBeingRead: Equatable {
        var head: HTTPRequestHead
        var body: CollectedBody
        let bodyLimit: Int
        /// The head asked for `100 Continue` and the interim answer waits for the answers before it.
        var continueOwed: Bool
    }

    /// Where the connection is in its life.
    enum Phase: Equatable {
        case open
        /// The server is shutting down: the answer being prepared closes the connection; no
        /// request waiting behind it starts.
        case quiescing
        /// An answer that closes the connection has been written: nothing more starts or is
        /// written; the close follows once it is flushed.
        case closing
        /// The pipeline dropped the handler (the connection is gone): an answer that arrives now
        /// is not written.
        case removed
    }

    /// What the owner does after an event, in this order.
    struct Actions: Equatable {
        /// Have the connection's timer fire at this deadline or earlier.
        var arm: NIODeadline?
        /// Hand this request to a responder: it counts as being answered from now on.
        var start: Request?
        /// Write `100 Continue` for the request being read.
        var writeContinue = false
        /// Issue the read held back by ``readRequested()``.
        var read = false
        /// Close the connection: nothing is, or will be, written on it.
        var close = false
        /// The connection is gone and no answer is being prepared: complete its `finished`.
        var finish = false

        static let none = Actions()
    }

    private(set) var phase = Phase.open
    private(set) var input = Input.idle
    /// Complete requests not yet started, oldest first.
    private var pending = CircularBuffer<Request>(initialCapacity: 2)
    /// A request has been handed to its responder, or an answer of the connection's own is being
    /// written, and its write has not finished.
    private(set) var answering = false
    /// A read the channel asked for while reading was paused: issued once it may go on.
    private var readHeld = false
    /// The socket can take more output: as last told by ``writabilityChanged(isWritable:)``.
    private var isWritable: Bool
    /// The connection's time limits.
    private(set) var deadlines: ConnectionDeadlines

    init(limits: ConnectionLimits, isWritable: Bool = true) {
        deadlines = ConnectionDeadlines(limits: limits)
        self.isWritable = isWritable
    }

    /// How many requests wait behind the one being answered.
    var pendingCount: Int { pending.count }

    /// No answer is being prepared and none waits to be: an interim answer may be written now.
    var answersAllWritten: Bool { !answering && pending.isEmpty }

    /// Nothing more comes from the client: it closed its side, or what it sent is not HTTP.
    var inputHasEnded: Bool { input == .ended || input == .malformed }

    // MARK: Reading

    /// The connection was accepted.
    mutating func opened(now: NIODeadline) -> Actions {
        armed(deadlines.opened(now: now))
    }

    /// A read from the socket ended.
    mutating func readCompleted(now: NIODeadline) -> Actions {
        armed(deadlines.readCompleted(now: now))
    }

    /// A request's head was read whole; `bodyLimit` is the longest body collected for it.
    mutating func headReceived(_ head: HTTPRequestHead, bodyLimit: Int, now: NIODeadline) -> Actions {
        guard !inputHasEnded else { return .none }
        var actions = armed(deadlines.headReceived(now: now))
        let expectation = Self.expectation(of: head, bodyLimit: bodyLimit)
        guard expectation != .bodyOverLimit else {
            // Answered from the head alone, the body never asked for. Whether the client then
            // sends it anyway is its choice, so where its next request would begin is unknown:
            // the connection closes after the answer (what comes meanwhile is dropped).
            input = .idle
            var closing = head
            closing.headers.replaceOrAdd(name: "connection", value: "close")
            actions.merge(enqueue(Request(head: closing, body: .tooLarge(limit: bodyLimit)), now: now))
            return actions
        }
        input = .request(RequestBeingRead(head: head, body: .collected(nil), bodyLimit: bodyLimit, continueOwed: expectation == .continue))
        actions.writeContinue = continueIfDue()
        return actions
    }

    /// A part of the body of the request being read.
    mutating func bodyReceived(_ chunk: ByteBuffer) {
        guard case .request(var request) = input else { return }
        // The enum lets go of the body first, so the chunk is appended in place, not to a copy.
        input = .idle
        request.continueOwed = false  // sent without waiting: nothing to ask for any more
        if case .collected(let body) = request.body {
            request.body = .collected(nil)
            if (body?.readableBytes ?? 0) + chunk.readableBytes > request.bodyLimit {
                request.body = .tooLarge(limit: request.bodyLimit)
            } else if var body {
                var chunk = chunk
                body.writeBuffer(&chunk)
                request.body = .collected(body)
            } else {
                request.body = .collected(chunk)
            }
        }
        input = .request(request)
    }

    /// The request being read ended: it waits for its turn, or starts now.
    mutating func endReceived(now: NIODeadline) -> Actions {
        guard case .request(let request) = input else { return .none }
        input = .idle
        return enqueue(Request(head: request.head, body: request.body), now: now)
    }

    /// Queues a complete request behind those waiting and starts the oldest one if it may.
    private mutating func enqueue(_ request: Request, now: NIODeadline) -> Actions {
        var actions = Actions.none
        // Shutting down, a request behind the one being answered is never started; nor one
        // read after an answer that closes the connection.
        if !(phase == .quiescing && answering), phase != .closing, phase != .removed {
            pending.append(request)
            actions = startNext()
        }
        // After the start: a request handed to its responder leaves no limit running.
        actions.merge(armed(deadlines.requestReceived(now: now)))
        return actions
    }

    /// Starts the oldest pending request, unless one is being answered, the connection is closing,
    /// or it cannot take the answer now; then lets a held read go if reading may go on.
    mutating func startNext() -> Actions {
        var actions = Actions.none
        guard !answering, phase == .open || phase == .quiescing, isWritable, let next = pending.popFirst() else { return actions }
        answering = true
        _ = deadlines.responderStarted()
        actions.start = next
        actions.read = resumeReadingIfHeld()
        return actions
    }

    /// The channel asks for a read: `true` to issue it now; `false` holds it (too many requests
    /// wait, or the socket cannot take their answers) until ``Actions/read`` lets it go.
    mutating func readRequested() -> Bool {
        guard isWritable, pending.count < Self.maxPendingRequests else {
            readHeld = true
            return false
        }
        return true
    }

    private mutating func resumeReadingIfHeld() -> Bool {
        guard readHeld, isWritable, pending.count < Self.maxPendingRequests else { return false }
        readHeld = false
        return true
    }

    /// The socket's writability changed: a request held back for it may start, a held read go.
    mutating func writabilityChanged(isWritable: Bool) -> Actions {
        self.isWritable = isWritable
        guard isWritable else { return .none }
        var actions = startNext()
        actions.read = actions.read || resumeReadingIfHeld()
        return actions
    }

    /// `true` (and the interim answer no longer owed) when the request being read asked for
    /// `100 Continue` and every earlier answer is written: an interim answer belongs to the oldest
    /// request not yet answered, so a client that pipelines would take it for an earlier one's.
    mutating func continueIfDue() -> Bool {
        guard case .request(var request) = input, request.continueOwed, answersAllWritten, phase == .open || phase == .quiescing else {
            return false
        }
        request.continueOwed = false
        input = .request(request)
        return true
    }

    /// A deadline action of a reading event, which arms or does nothing (only the timer firing
    /// closes), as ``Actions``; nothing is armed once the handler is gone.
    func armed(_ action: ConnectionDeadlines.Action) -> Actions {
        guard case .arm(let due) = action, phase != .removed else { return .none }
        return Actions(arm: due)
    }
}

extension HTTP1DispatchStateMachine.Actions {
    /// Adds what `other` asks for to these actions (a later deadline replaces an earlier one: the
    /// machine's last word is the one in force).
    mutating func merge(_ other: Self) {
        arm = other.arm ?? arm
        start = other.start ?? start
        writeContinue = writeContinue || other.writeContinue
        read = read || other.read
        close = close || other.close
        finish = finish || other.finish
    }
}

// MARK: Answers

/// The answer side of ``HTTP1DispatchStateMachine``: an answer ready to be written, and written.
extension HTTP1DispatchStateMachine {
    /// What to do with an answer that is ready.
    enum AnswerAction: Equatable {
        /// The connection is gone: write nothing, finish the answer (``answerFinished(now:)``).
        case drop
        /// Write it; `keepAlive: false` says `Connection: close` and closes once it is flushed.
        case write(keepAlive: Bool)
    }

    /// The answer being prepared is ready; `keepAlive` is what its request asked for, and
    /// `closesConnections` whether the listener now closes every connection after its answer
    /// (the drain; asked only when nothing else already closes this one).
    ///
    /// The connection closes after it when the server is shutting down, or the client has closed
    /// its side and sent nothing more to answer. From a closing answer on, nothing else is
    /// started or written: a request read after it is dropped.
    mutating func answerReady(keepAlive: Bool, closesConnections: @autoclosure () -> Bool) -> AnswerAction {
        switch phase {
        case .removed:
            return .drop
        case .closing:
            return .write(keepAlive: false)
        case .quiescing:
            phase = .closing
            return .write(keepAlive: false)
        case .open:
            guard keepAlive, !(inputHasEnded && pendingCount == 0), !closesConnections() else {
                phase = .closing
                return .write(keepAlive: false)
            }
            return .write(keepAlive: true)
        }
    }

    /// The answer is written (or dropped) and the request's deferred work has run: the request's
    /// turn ends. On a connection that stays open, the idle (or next head's) limit runs again,
    /// the next request starts, and an interim answer owed to the request being read goes out.
    mutating func answerFinished(now: NIODeadline) -> Actions {
        answering = false
        switch phase {
        case .removed:
            return Actions(finish: true)
        case .closing:
            return .none
        case .open, .quiescing:
            var actions = armed(deadlines.answerWritten(now: now))
            actions.merge(startNext())
            actions.writeContinue = continueIfDue()
            return actions
        }
    }
}

// MARK: Closing

/// How a ``HTTP1DispatchStateMachine`` connection ends: the client closes its side or sends what
/// is not HTTP, the server quiesces, a time limit passes, the connection fails or is gone.
extension HTTP1DispatchStateMachine {
    /// The client closed its side (TCP half-close): close once every request it sent is answered.
    /// A request cut off halfway can never end; one being answered or waiting is answered first.
    mutating func inputClosed() -> Actions {
        if input != .malformed { input = .ended }
        guard answersAllWritten, phase != .removed else { return .none }
        return Actions(close: true)
    }

    /// The server is shutting down: close after the answer being prepared; start nothing more. A
    /// request being read (head, no end yet) is still answered, with `Connection: close`.
    mutating func quiesce() -> Actions {
        guard phase != .removed else { return .none }
        if phase == .open { phase = .quiescing }
        // Requests waiting behind the one being answered never started: nothing of them reached
        // a carrier.
        pending.removeAll()
        if answering { return .none }
        if case .request = input { return .none }
        return Actions(close: true)
    }

    /// What to do about bytes that are not HTTP.
    enum ParserErrorAction: Equatable {
        /// More of the same after the first: the decoder drops them, the answers go on.
        case ignore
        /// Earlier requests are still to be answered: the last of their answers closes the
        /// connection. A 400 written now would reach the client as the answer to the oldest.
        case closeAfterAnswers
        /// Nothing else is owed: write this answer (400, or 431 for a head over the limit) and close.
        case answerAndClose(HTTPResponse.Status)
    }

    /// NIO's decoder failed: nothing after the failure is read as a request. A head over the
    /// limit gets 431 (RFC 6585) rather than 400, so the client can tell its request was refused
    /// for its size, not its syntax.
    mutating func parserError(headTooLarge: Bool) -> ParserErrorAction {
        guard input != .malformed else { return .ignore }
        input = .malformed
        guard answersAllWritten, phase == .open || phase == .quiescing else { return .closeAfterAnswers }
        answering = true
        return .answerAndClose(headTooLarge ? .requestHeaderFieldsTooLarge : .badRequest)
    }

    /// What to do when the connection's timer fires.
    enum TimerAction: Equatable {
        case none
        /// Have the timer fire again at this deadline or earlier.
        case arm(NIODeadline)
        /// A limit passed with nothing of a request read, or with an answer still owed: close.
        case close(ConnectionLimitReached)
        /// A limit passed with part of a request read and nothing else owed: write 408, close.
        case answerAndClose(ConnectionLimitReached)
        /// A limit passed while an answer of the connection's own is being written: it closes
        /// the connection anyway.
        case report(ConnectionLimitReached)
    }

    /// The connection's timer fired at `now`.
    mutating func timerFired(now: NIODeadline) -> TimerAction {
        switch deadlines.timerFired(now: now) {
        case .none:
            return .none
        case .arm(let due):
            return phase == .removed ? .none : .arm(due)
        case .close(let reason):
            return .close(reason)
        case .answerAndClose(let reason):
            // Only when no earlier answer is owed (a 408 written now would reach the client as
            // that one's) and no responder has the request: a started request is always answered.
            guard answersAllWritten, phase == .open || phase == .quiescing else {
                return answering ? .report(reason) : .close(reason)
            }
            answering = true
            return .answerAndClose(reason)
        }
    }

    /// A reset, a failed write: the connection is gone or unusable.
    mutating func connectionFailed() -> Actions {
        phase == .removed ? .none : Actions(close: true)
    }

    /// The pipeline dropped the handler: the connection is closed. Requests waiting behind the one
    /// being answered never start; that one's answer is dropped when it comes, and the connection
    /// finishes then.
    mutating func handlerRemoved() -> Actions {
        phase = .removed
        pending.removeAll()
        return answering ? .none : Actions(finish: true)
    }
}
