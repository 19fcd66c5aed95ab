import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The last handler of an ``HTTP1DispatchChannel`` connection: collects one request at a time on
/// the event loop, starts its responder task, and writes the answer when the task hands it back.
///
/// It lives on its channel's loop and is touched only there; the responder task reaches it through
/// `NIOLoopBound`, on the loop. NIO's `HTTPServerPipelineHandler` ahead of it delivers the next
/// pipelined request only after this one's answer has ended, so there is never more than one
/// request per connection here.
///
/// While the connection cannot take more output (a client that sends requests without reading the
/// answers) it reads no more and starts no next request, as `NIOAsyncChannel`'s writer did by
/// suspending: answers never pile up in memory faster than the client reads them.
final class HTTP1DispatchHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    let channel: HTTP1DispatchChannel
    private let executor: any TaskExecutor
    /// Succeeded once the connection is gone and no answer is being prepared (``HTTP1DispatchChannel/Value``).
    let finished: EventLoopPromise<Void>
    private let logger: Logger

    /// The request being read: its head, the body so far, the body limit it was read against, and
    /// whether the body went over it (then nothing more of it is kept).
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var bodyLimit = 0
    private var bodyTooLarge = false
    /// A request has been handed to its task and its answer not yet written.
    var answering = false
    /// The client closed its side (TCP half-close): close the connection once the answer is out.
    var closeAfterAnswer = false
    /// A read the channel asked for while it could not write: issued once it can again.
    private var heldRead = false
    /// A complete request that arrived while the channel could not write: started once it can.
    private var heldRequest: (head: HTTPRequestHead, body: CollectedBody)?
    /// Set once the pipeline has dropped this handler (the connection closed): an answer that
    /// arrives afterwards is not written.
    private(set) var removed = false

    init(channel: HTTP1DispatchChannel, executor: any TaskExecutor, finished: EventLoopPromise<Void>, logger: Logger) {
        self.channel = channel
        self.executor = executor
        self.finished = finished
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = nil
            bodyLimit = channel.configuration.maxRequestBodyBytes()
            bodyTooLarge = false
        case .body(var chunk):
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
            if context.channel.isWritable {
                dispatch(context: context, head: head, body: collected)
            } else {
                heldRequest = (head, collected)
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        // A request held back for a full socket never started: nothing of it reached a carrier.
        heldRequest = nil
        if !answering { finished.succeed() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // NIO's pipeline handler holds a half-close back until the answer before it is written;
        // one that arrives now ends the connection, at once or after the answer being prepared.
        if let event = event as? ChannelEvent, event == .inputClosed {
            if answering || heldRequest != nil {
                closeAfterAnswer = true
            } else {
                context.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func read(context: ChannelHandlerContext) {
        guard context.channel.isWritable else {
            heldRead = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            if let held = heldRequest {
                heldRequest = nil
                dispatch(context: context, head: held.head, body: held.body)
            }
            if heldRead {
                heldRead = false
                context.read()
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // NIO's protocol error handler has answered 400 to a malformed request already; anything
        // else reaching the end of the pipeline (a reset, a failed write) ends the connection too.
        logger.debug("HTTP connection error, closing", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        context.close(promise: nil)
    }

    private enum CollectedBody {
        case collected(ByteBuffer?)
        case tooLarge(limit: Int)
    }

    private func dispatch(context: ChannelHandlerContext, head: HTTPRequestHead, body: CollectedBody) {
        let request: Request
        do {
            let requestBody: RequestBody = switch body {
            case .collected(let buffer): RequestBody(buffer: buffer ?? ByteBuffer())
            case .tooLarge(let limit): RequestBody(asyncSequence: OversizedRequestBody(limit: limit))
            }
            request = Request(head: try HTTPRequest(head, secure: false, splitCookie: false), body: requestBody)
        } catch {
            // A method HTTP types cannot hold or a request without a path: nothing to route.
            let answer = HTTPResponse(status: .badRequest, headerFields: [.contentLength: "0"])
            write(context: context, answer: answer, body: nil, to: ResponseFraming(head, keepAlive: false))
            return
        }
        let framing = ResponseFraming(head)
        answering = true
        let loop = context.eventLoop
        let target = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let respond = channel.respond
        let affinity = channel.affinity
        let channel = context.channel
        affinity?.requestStarted()
        Task(executorPreference: executor) {
            let (answer, body, failed) = await ResponseBodyCollector.collect(respond(request, channel))
            affinity?.requestFinished()
            let framing = failed ? framing.closing() : framing
            if loop.inEventLoop {
                target.value.handler.write(context: target.value.context, answer: answer, body: body, to: framing)
            } else {
                loop.execute {
                    target.value.handler.write(context: target.value.context, answer: answer, body: body, to: framing)
                }
            }
        }
    }
}
