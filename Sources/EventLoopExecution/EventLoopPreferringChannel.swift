public import HummingbirdCore
public import Logging
public import NIOCore

/// A server child channel whose handling task prefers its connection's event loop
/// (``EventLoopTaskExecutor``) while the listener is quiet (``EventLoopAffinity``).
///
/// Hummingbird starts each connection's `handle` in a task on Swift's global pool; the bytes
/// arrive on the channel's event loop and leave from it. With this wrapper, reading a request,
/// running the responder and writing the answer happen on the loop's thread while few requests
/// are in flight, and on the pool as before once more are.
public struct EventLoopPreferringChannel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    /// The wrapped channel (HTTP/1 for every Passgate listener).
    public let base: Base
    /// Shared by every connection of the listener.
    public let affinity: EventLoopAffinity

    public init(_ base: Base, affinity: EventLoopAffinity) {
        self.base = base
        self.affinity = affinity
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    public func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop, affinity: affinity)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 whose requests run on their connection's event loop while at most
    /// `requestsOnEventLoop` are in flight on the listener, and on Swift's global pool above that
    /// (``EventLoopAffinity``); 0 or less: always on the pool, Hummingbird's own `http1`.
    public static func http1(requestsOnEventLoop: Int, configuration: HTTP1Channel.Configuration = .init()) -> HTTPServerBuilder {
        guard requestsOnEventLoop > 0 else { return .http1(configuration: configuration) }
        let affinity = EventLoopAffinity(limit: requestsOnEventLoop)
        return .init { responder in
            EventLoopPreferringChannel(
                HTTP1Channel(
                    responder: { request, writer, channel in
                        affinity.requestStarted()
                        defer { affinity.requestFinished() }
                        try await responder(request, writer, channel)
                    },
                    configuration: configuration),
                affinity: affinity)
        }
    }
}
