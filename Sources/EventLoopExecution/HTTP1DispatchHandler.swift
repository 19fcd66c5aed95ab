import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The last handler of an ``HTTP1DispatchChannel`` connection: collects requests on the event
/// loop, starts one responder task at a time, and writes each answer when its task hands it back.
///
/// What to do, and when, is ``HTTP1DispatchStateMachine``'s to decide: the handler tells it each
/// NIO event and performs the actions it answers (HTTP1DispatchHandler+Actions.swift). It lives
/// on its channel's loop and is touched only there; the responder task reaches it through
/// `NIOLoopBound`, on the loop.
///
/// Reading goes on while a request is answered: NIO's `HTTPServerPipelineHandler` would stop
/// reading until each answer is written, which costs two `epoll_ctl` calls per request on a
/// keep-alive connection (bench/decisions/0016-http1-dispatch-channel.md).
final class HTTP1DispatchHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let channel: HTTP1DispatchChannel
    let executor: any TaskExecutor
    /// Succeeded once the connection is gone and no answer is being prepared (``HTTP1DispatchChannel/Value``).
    let finished: EventLoopPromise<Void>
    let logger: Logger
    var machine: HTTP1DispatchStateMachine
    /// The one timer behind the machine's deadlines.
    var timer = ConnectionTimer()

    init(channel: HTTP1DispatchChannel, executor: any TaskExecutor, finished: EventLoopPromise<Void>, logger: Logger) {
        self.channel = channel
        self.executor = executor
        self.finished = finished
        self.logger = logger
        machine = HTTP1DispatchStateMachine(limits: channel.configuration.limits)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        perform(machine.writabilityChanged(isWritable: context.channel.isWritable), context: context)
        perform(machine.opened(now: context.eventLoop.now), context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        perform(machine.readCompleted(now: context.eventLoop.now), context: context)
        context.fireChannelReadComplete()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let bodyLimit = channel.configuration.maxRequestBodyBytes()
            perform(machine.headReceived(head, bodyLimit: bodyLimit, now: context.eventLoop.now), context: context)
        case .body(let chunk):
            machine.bodyReceived(chunk)
        case .end:
            perform(machine.endReceived(now: context.eventLoop.now), context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer.cancel()
        perform(machine.handlerRemoved(), context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let event as ChannelEvent where event == .inputClosed:
            perform(machine.inputClosed(), context: context)
        case is ChannelShouldQuiesceEvent:
            perform(machine.quiesce(), context: context)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func read(context: ChannelHandlerContext) {
        if machine.readRequested() { context.read() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        perform(machine.writabilityChanged(isWritable: context.channel.isWritable), context: context)
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as HTTPParserError:
            let tooLarge = error == .headerOverflow
            let action = machine.parserError(headTooLarge: tooLarge)
            guard action != .ignore else { return }
            if tooLarge { channel.configuration.limitReached(.headTooLarge) }
            logger.debug("malformed HTTP request", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            if case .answerAndClose(let status) = action {
                write(context: context, answer: HTTPResponse(status: status), body: nil, to: .closingWithoutRequest)
            }
        case ByteToMessageDecoderError.dataReceivedInErrorState where machine.input == .malformed:
            return  // bytes after the malformed ones: dropped by the decoder, the answers go on
        default:
            logger.debug("HTTP connection error, closing", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            perform(machine.connectionFailed(), context: context)
        }
    }

    /// Hands one request to a task for the responder; the task gives the answer back to the loop.
    func dispatch(context: ChannelHandlerContext, _ next: HTTP1DispatchStateMachine.Request) {
        let request: Request
        do {
            let requestBody: RequestBody = switch next.body {
            case .collected(let buffer): RequestBody(buffer: buffer ?? ByteBuffer())
            case .tooLarge(let limit): RequestBody(asyncSequence: OversizedRequestBody(limit: limit))
            }
            request = Request(head: try HTTP1RequestHead.request(next.head), body: requestBody)
        } catch {
            // A method HTTP types cannot hold or a request without a path: nothing to route.
            let answer = HTTPResponse(status: .badRequest, headerFields: [.contentLength: "0"])
            write(context: context, answer: answer, body: nil, to: ResponseFraming(next.head, keepAlive: false))
            return
        }
        let framing = ResponseFraming(next.head)
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
