import HTTPTypes
import Logging
import NIOCore

/// Runs the connection's ``ConnectionDeadlines`` on its event loop with its ``ConnectionTimer``.
extension HTTP1DispatchHandler {
    func apply(_ action: ConnectionDeadlines.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            return
        case .arm(let due):
            guard !removed else { return }
            timer.arm(at: due, on: context.eventLoop) { [self] in
                timer.fired()
                apply(deadlines.timerFired(now: context.eventLoop.now), context: context)
            }
        case .close(let reason):
            channel.configuration.limitReached(reason)
            logger.debug("closing a connection", metadata: ["reason": .string(reason.rawValue)])
            context.close(promise: nil)
        case .answerAndClose(let reason):
            channel.configuration.limitReached(reason)
            logger.debug("closing a connection with 408", metadata: ["reason": .string(reason.rawValue)])
            // Only when no earlier answer is owed (a 408 written now would reach the client as
            // that one's) and no responder has the request: a started request is always answered.
            guard answersAllWritten, !closing, !removed else {
                if !answering { context.close(promise: nil) }
                return
            }
            answering = true
            write(context: context, answer: HTTPResponse(status: .requestTimeout), body: nil, to: .closingWithoutRequest)
        }
    }
}
