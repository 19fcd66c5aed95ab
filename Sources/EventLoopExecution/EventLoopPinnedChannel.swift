public import HummingbirdCore
public import Logging
public import NIOCore

/// A server child channel whose handling task runs on the connection's own event loop.
///
/// Hummingbird starts each connection's `handle` in a task on Swift's global executor; the bytes
/// arrive on the channel's event loop and leave from it. Wrapping the channel this way makes the
/// task prefer an ``EventLoopTaskExecutor`` for that loop, so reading a request, running the
/// responder and writing the answer happen on one thread, with no hop to the global pool and
/// back per request.
public struct EventLoopPinnedChannel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    /// The wrapped channel (HTTP/1 for every Passgate listener).
    public let base: Base

    public init(_ base: Base) {
        self.base = base
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    public func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1, each connection handled on its own event loop (``EventLoopPinnedChannel``).
    public static func http1OnEventLoop(configuration: HTTP1Channel.Configuration = .init()) -> HTTPServerBuilder {
        .init { responder in
            EventLoopPinnedChannel(HTTP1Channel(responder: responder, configuration: configuration))
        }
    }
}
