import EventLoopExecution
import NIOCore
import NIOHTTP1
import PassgateCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves one connection: collects each request (body capped), asks the engine, then answers
/// after the injected latency, resets the connection, or holds it. Requests on a keep-alive
/// connection are handled one at a time in order (NIO's pipelining helper sits in front).
final class SandboxHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case idle
        case reading(HTTPRequestHead, ByteBuffer)
        /// The body exceeds the cap: drop it and answer 413 at its end.
        case discarding(HTTPRequestHead)
        /// Already answered (413 before an `Expect: 100-continue` body); ignore the rest.
        case rejected
    }

    private let engine: SandboxEngine
    private let maxBodyBytes: Int
    private var state = State.idle
    private var active = true
    /// The connection's time limits, as the API listener keeps them (ConnectionDeadlines).
    private var deadlines: ConnectionDeadlines
    private var timer = ConnectionTimer()

    init(engine: SandboxEngine, maxBodyBytes: Int, limits: ConnectionLimits) {
        self.engine = engine
        self.maxBodyBytes = maxBodyBytes
        deadlines = ConnectionDeadlines(limits: limits)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        apply(deadlines.opened(now: context.eventLoop.now), context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer.cancel()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        apply(deadlines.readCompleted(now: context.eventLoop.now), context: context)
        context.fireChannelReadComplete()
    }

    /// Arms the timer, or closes: a request that timed out
    /// before the engine had it gets 408, a connection that sent nothing is closed.
    private func apply(_ action: ConnectionDeadlines.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            return
        case .arm(let due):
            timer.arm(at: due, on: context.eventLoop) { [self] in
                timer.fired()
                apply(deadlines.timerFired(now: context.eventLoop.now), context: context)
            }
        case .close:
            context.close(promise: nil)
        case .answerAndClose:
            state = .rejected
            perform(
                .respond(status: 408, contentType: nil, body: [], headers: []), context: context, version: .http1_1, keepAlive: false,
                method: .GET)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): received(head, context: context)
        case .body(var chunk): received(&chunk)
        case .end: ended(context: context)
        }
    }

    private func received(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        apply(deadlines.headReceived(now: context.eventLoop.now), context: context)
        let declared = head.headers.first(name: "content-length").flatMap(Int.init) ?? 0
        let expectsContinue = head.headers.first(name: "expect")?.lowercased() == "100-continue"
        if declared > maxBodyBytes {
            if expectsContinue {
                // Refuse before the client sends the body.
                state = .rejected
                respondTooLarge(context: context, head: head)
            } else {
                state = .discarding(head)
            }
            return
        }
        if expectsContinue {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
        state = .reading(head, context.channel.allocator.buffer(capacity: max(declared, 0)))
    }

    private func received(_ chunk: inout ByteBuffer) {
        guard case .reading(let head, var body) = state else { return }
        state = .idle  // release the stored buffer first, so appending does not copy it
        if body.readableBytes + chunk.readableBytes > maxBodyBytes {
            state = .discarding(head)
        } else {
            body.writeBuffer(&chunk)
            state = .reading(head, body)
        }
    }

    private func ended(context: ChannelHandlerContext) {
        let finished = state
        state = .idle
        // Answered (or held, a fault) from here on: no limit runs until the answer is written.
        _ = deadlines.responderStarted()
        apply(deadlines.requestReceived(now: context.eventLoop.now), context: context)
        switch finished {
        case .reading(let head, let body):
            let request = EmulatorRequest(
                method: head.method.rawValue, uri: head.uri, body: Array(body.readableBytesView),
                peerIP: context.channel.remoteAddress?.ipAddress,
                authorization: head.headers.first(name: "Authorization"), contentType: head.headers.first(name: "Content-Type"),
                headers: head.headers.map { (name: $0.name, value: $0.value) }
            )
            let answer = engine.handle(request)
            let (version, keepAlive, method) = (head.version, head.isKeepAlive, head.method)
            guard answer.delayMs > 0 else {
                perform(answer.action, context: context, version: version, keepAlive: keepAlive, method: method)
                return
            }
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            engine.delayStarted()
            context.eventLoop.scheduleTask(in: .milliseconds(Int64(answer.delayMs))) {
                let (handler, context) = bound.value
                handler.engine.delayEnded()
                handler.perform(answer.action, context: context, version: version, keepAlive: keepAlive, method: method)
            }
        case .discarding(let head):
            respondTooLarge(context: context, head: head)
        case .idle, .rejected:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        active = false
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func respondTooLarge(context: ChannelHandlerContext, head: HTTPRequestHead) {
        let body = JSONWriter.object(["error": "request body exceeds \(maxBodyBytes) bytes"])
        perform(
            .respond(status: 413, contentType: SandboxAnswer.jsonContentType, body: body, headers: []),
            context: context, version: head.version, keepAlive: false, method: head.method
        )
    }

    private func perform(
        _ action: SandboxAnswer.Action, context: ChannelHandlerContext, version: HTTPVersion, keepAlive: Bool, method: HTTPMethod
    ) {
        guard active else { return }
        switch action {
        case .respond(let status, let contentType, let body, let extra):
            var headers = HTTPHeaders()
            if let contentType { headers.add(name: "Content-Type", value: contentType) }
            headers.add(name: "Content-Length", value: String(body.count))
            for (name, value) in extra { headers.add(name: name, value: value) }
            if !keepAlive {
                headers.add(name: "Connection", value: "close")
            } else if version.major == 1, version.minor == 0 {
                headers.add(name: "Connection", value: "keep-alive")
            }
            let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if !body.isEmpty, method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive {
                let channel = context.channel
                done.whenComplete { _ in channel.close(promise: nil) }
            } else {
                apply(deadlines.answerWritten(now: context.eventLoop.now), context: context)
            }
        case .reset:
            resetConnection(context.channel)
        case .hold:
            break
        }
    }

    /// Closes with `SO_LINGER {on, 0}`: the kernel discards the socket with a RST instead of a FIN.
    private func resetConnection(_ channel: any Channel) {
        guard let provider = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
