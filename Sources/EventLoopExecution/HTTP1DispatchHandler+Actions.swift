import HTTPTypes
import Logging
import NIOCore

/// Performs what ``HTTP1DispatchStateMachine`` answers, on the connection's event loop.
extension HTTP1DispatchHandler {
    func perform(_ actions: HTTP1DispatchStateMachine.Actions, context: ChannelHandlerContext) {
        if let due = actions.arm { arm(at: due, context: context) }
        if let next = actions.start { dispatch(context: context, next) }
        if actions.writeContinue { writeContinue(context: context) }
        if actions.read { context.read() }
        if actions.close { context.close(promise: nil) }
        if actions.finish { finished.succeed() }
    }

    /// Has the timer fire at `due` or earlier; when it fires, the machine says what follows.
    private func arm(at due: NIODeadline, context: ChannelHandlerContext) {
        timer.arm(at: due, on: context.eventLoop) { [self] in
            timer.fired()
            timerFired(context: context)
        }
    }

    private func timerFired(context: ChannelHandlerContext) {
        switch machine.timerFired(now: context.eventLoop.now) {
        case .none:
            return
        case .arm(let due):
            arm(at: due, context: context)
        case .close(let reason):
            limitReached(reason, "closing a connection")
            context.close(promise: nil)
        case .report(let reason):
            limitReached(reason, "closing a connection")
        case .answerAndClose(let reason):
            limitReached(reason, "closing a connection with 408")
            write(context: context, answer: HTTPResponse(status: .requestTimeout), body: nil, to: .closingWithoutRequest)
        }
    }

    private func limitReached(_ reason: ConnectionLimitReached, _ message: Logger.Message) {
        channel.configuration.limitReached(reason)
        logger.debug(message, metadata: ["reason": .string(reason.rawValue)])
    }

    /// Writes the `100 Continue` the request being read asked for.
    private func writeContinue(context: ChannelHandlerContext) {
        var bytes = context.channel.allocator.buffer(capacity: 32)
        HTTP1ResponseHead.writeContinue(into: &bytes)
        context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
    }
}
