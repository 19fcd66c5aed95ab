import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The last handler of an ``HTTP1DispatchChannel`` connection: collects requests on the event
/// loop, starts one responder task at a time, and writes each answer when its task hands it back.
///
/// It lives on its channel's loop and is touched only there; the responder task reaches it through
/// `NIOLoopBound`, on the loop.
///
/// Pipelined requests wait in ``pending`` and are started one after the other, so answers leave in
/// the order the requests came. Reading goes on while a request is answered: NIO's
/// `HTTPServerPipelineHandler` would stop reading until each answer is written, which costs two
/// `epoll_ctl` calls per request on a keep-alive connection (bench/decisions/0016-http1-dispatch-channel.md). Reading
/// stops only while ``maxPendingRequests`` wait, or while the connection cannot take more output
/// (a client that sends requests without reading the answers); then no next request starts either,
/// so answers never pile up in memory faster than the client reads them.
final class HTTP1DispatchHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Complete requests that may wait behind the one being answered before reading pauses.
    static let maxPendingRequests = 16

    let channel: HTTP1DispatchChannel
    private let executor: any TaskExecutor
    /// Succeeded once the connection is gone and no answer is being prepared (``HTTP1DispatchChannel/Value``).
    let finished: EventLoopPromise<Void>
    let logger: Logger

    /// The request being read: its head, the body so far, the body limit it was read against, and
    /// whether the body went over it (then nothing more of it is kept).
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var bodyLimit = 0
    private var bodyTooLarge = false
    /// Complete requests not yet started, oldest first.
    private var pending = CircularBuffer<(head: HTTPRequestHead, body: CollectedBody)>(initialCapacity: 2)
    /// A request has been handed to its task and its answer not yet written.
    var answering = false
    /// The client closed its side (TCP half-close): close once every request it sent is answered.
    private var inputClosed = false
    /// The server is shutting down: close after the answer being prepared; start nothing more.
    private(set) var quiescing = false
    /// A read the channel asked for while reading was paused: issued once it may go on.
    private var heldRead = false
    /// Set once the pipeline has dropped this handler (the connection closed): an answer that
    /// arrives afterwards is not written.
    private(set) var removed = false
    /// An answer that closes the connection has been written: no request after it starts, even one
    /// read before the close completes.
    var closing = false
    /// The connection sent bytes that are not HTTP: nothing after them is read as a request.
    private var malformed = false
    /// The request being read asked for `100 Continue` before it sends its body, and the interim
    /// answer waits for the answers before it (HTTP1DispatchHandler+Continue.swift).
    var continueOwed = false
    /// The connection's time limits, and the timer that enforces them (HTTP1DispatchHandler+Deadlines.swift).
    var deadlines: ConnectionDeadlines
    var timer = ConnectionTimer()

    init(channel: HTTP1DispatchChannel, executor: any TaskExecutor, finished: EventLoopPromise<Void>, logger: Logger) {
        self.channel = channel
        self.executor = executor
        self.finished = finished
        self.logger = logger
        deadlines = ConnectionDeadlines(limits: channel.configuration.limits)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        apply(deadlines.opened(now: context.eventLoop.now), context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        apply(deadlines.readCompleted(now: context.eventLoop.now), context: context)
        context.fireChannelReadComplete()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            apply(deadlines.headReceived(now: context.eventLoop.now), context: context)
            self.head = head
            body = nil
            bodyLimit = channel.configuration.maxRequestBodyBytes()
            bodyTooLarge = false
            continueOwed = false
            switch Self.expectation(of: head, bodyLimit: bodyLimit) {
            case .none:
                break
            case .continue:
                continueOwed = true
                writeContinueIfDue(context: context)
            case .bodyOverLimit:
                // Answered from the head alone, the body never asked for. Whether the client then
                // sends it anyway is its choice, so where its next request would begin is unknown:
                // the connection closes after the answer (what comes meanwhile is dropped).
                self.head = nil
                var closing = head
                closing.headers.replaceOrAdd(name: "connection", value: "close")
                enqueue((closing, .tooLarge(limit: bodyLimit)), context: context)
            }
        case .body(var chunk):
            continueOwed = false  // sent without waiting: nothing to ask for any more
            guard head != nil, !bodyTooLarge else { return }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > bodyLimit {
                bodyTooLarge = true
                body = nil
            } else if body == nil {
                body = chunk
            } else {
                body!.writeBuffer(&chunk)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            let collected: CollectedBody = bodyTooLarge ? .tooLarge(limit: bodyLimit) : .collected(body)
            body = nil
            continueOwed = false
            enqueue((head, collected), context: context)
        }
    }

    /// Queues a complete request behind those waiting and starts the oldest one if it may.
    private func enqueue(_ request: (head: HTTPRequestHead, body: CollectedBody), context: ChannelHandlerContext) {
        defer { apply(deadlines.requestReceived(now: context.eventLoop.now), context: context) }
        // Shutting down, a request behind the one being answered is never started.
        guard !(quiescing && answering), !closing else { return }
        pending.append(request)
        startNext(context: context)
    }

    /// No answer is being prepared and none waits to be: an interim answer may be written now.
    var answersAllWritten: Bool {
        !answering && pending.isEmpty
    }

    /// Starts the oldest pending request, unless one is being answered, the connection is closing,
    /// or it cannot take the answer now.
    func startNext(context: ChannelHandlerContext) {
        guard !answering, !removed, !closing, context.channel.isWritable, let next = pending.popFirst() else { return }
        dispatch(context: context, head: next.head, body: next.body)
        resumeReadingIfHeld(context: context)
    }

    /// The answer being prepared is in: the next request may start once it is written.
    func answered() {
        answering = false
    }

    /// Whether the connection closes after the answer now being written: the server is shutting
    /// down or draining, or the client has closed its side and sent nothing more to answer.
    var closesAfterThisAnswer: Bool {
        quiescing || (inputClosed && pending.isEmpty) || channel.configuration.closesConnections()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        timer.cancel()
        // Requests waiting behind the one being answered never started: nothing of them reached
        // a carrier.
        pending.removeAll()
        if !answering { finished.succeed() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let event as ChannelEvent where event == .inputClosed:
            inputClosed = true
            // A request cut off halfway can never end; one being answered or waiting is answered first.
            if !answering, pending.isEmpty { context.close(promise: nil) }
        case is ChannelShouldQuiesceEvent:
            quiescing = true
            pending.removeAll()
            // A request being read (head, no end yet) is still answered, with `Connection: close`.
            if !answering, head == nil { context.close(promise: nil) }
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func read(context: ChannelHandlerContext) {
        guard context.channel.isWritable, pending.count < Self.maxPendingRequests else {
            heldRead = true
            return
        }
        context.read()
    }

    private func resumeReadingIfHeld(context: ChannelHandlerContext) {
        guard heldRead, context.channel.isWritable, pending.count < Self.maxPendingRequests else { return }
        heldRead = false
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            startNext(context: context)
            resumeReadingIfHeld(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as HTTPParserError:
            guard !malformed else { return }
            malformed = true
            // A head over the limit: 431 (RFC 6585) rather than 400, so the client can tell its
            // request was refused for its size, not its syntax.
            let tooLarge = error == .headerOverflow
            if tooLarge { channel.configuration.limitReached(.headTooLarge) }
            logger.debug("malformed HTTP request", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            // Nothing after it is read as a request. Alone, it gets a 400 and the connection
            // closes; behind requests not yet answered, those are answered first and the last
            // answer closes the connection: a 400 written now would reach the client as the
            // answer to the oldest of them.
            inputClosed = true
            guard !answering, pending.isEmpty, !closing, !removed else { return }
            answering = true
            let status: HTTPResponse.Status = tooLarge ? .requestHeaderFieldsTooLarge : .badRequest
            write(context: context, answer: HTTPResponse(status: status), body: nil, to: .closingWithoutRequest)
        case ByteToMessageDecoderError.dataReceivedInErrorState where malformed:
            return  // bytes after the malformed ones: dropped by the decoder, the answers go on
        default:
            // A reset, a failed write: the connection is gone or unusable.
            logger.debug("HTTP connection error, closing", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            context.close(promise: nil)
        }
    }

    enum CollectedBody {
        case collected(ByteBuffer?)
        case tooLarge(limit: Int)
    }

    /// Hands one request to a task for the responder; the task gives the answer back to the loop.
    private func dispatch(context: ChannelHandlerContext, head: HTTPRequestHead, body: CollectedBody) {
        let request: Request
        do {
            let requestBody: RequestBody = switch body {
            case .collected(let buffer): RequestBody(buffer: buffer ?? ByteBuffer())
            case .tooLarge(let limit): RequestBody(asyncSequence: OversizedRequestBody(limit: limit))
            }
            request = Request(head: try HTTP1RequestHead.request(head), body: requestBody)
        } catch {
            // A method HTTP types cannot hold or a request without a path: nothing to route.
            let answer = HTTPResponse(status: .badRequest, headerFields: [.contentLength: "0"])
            answering = true
            _ = deadlines.responderStarted()
            write(context: context, answer: answer, body: nil, to: ResponseFraming(head, keepAlive: false))
            return
        }
        let framing = ResponseFraming(head)
        answering = true
        _ = deadlines.responderStarted()
        let loop = context.eventLoop
        let target = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let respond = channel.respond
        let affinity = channel.affinity
        let channel = context.channel
        affinity?.requestStarted()
        Task(executorPreference: executor) {
            let after = AfterAnswer.Work()
            let (answer, body, failed) = await AfterAnswer.$current.withValue(after) {
                await ResponseBodyCollector.collect(respond(request, channel))
            }
            affinity?.requestFinished()
            let framing = failed ? framing.closing() : framing
            if loop.inEventLoop {
                target.value.handler.write(context: target.value.context, answer: answer, body: body, to: framing, then: after)
            } else {
                after.run()
                loop.execute {
                    target.value.handler.write(context: target.value.context, answer: answer, body: body, to: framing)
                }
            }
        }
    }
}
