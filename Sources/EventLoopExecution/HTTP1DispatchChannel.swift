public import HummingbirdCore
public import Logging
public import NIOCore
import NIOHTTP1
public import PassgateCore

/// An HTTP/1.1 server child channel that hands each complete request straight from its event loop
/// to a responder task, and writes the answer back from the loop: no per-connection async stream
/// in between.
///
/// Hummingbird's own `HTTP1Channel` wraps each connection in a `NIOAsyncChannel`: a long-lived task
/// per connection pulls request parts out of an async sequence and pushes response parts into an
/// async writer, and both bridges take a lock and hand the parts across threads. For an API whose
/// requests and answers are a few hundred bytes each that bridge is a large part of what a request
/// costs (bench/decisions/0016-http1-dispatch-channel.md). Here the loop collects the request (head and body), starts
/// one task for the responder, and the task gives the loop the whole answer back at once.
///
/// What the channel keeps of HTTP/1.1:
/// - pipelined requests are answered in order, one at a time (up to 16 wait; beyond that the
///   connection is not read until they are answered);
/// - a request without keep-alive (HTTP/1.1 `Connection: close`, or HTTP/1.0 without
///   `keep-alive`) is answered with `Connection: close` and the connection closed after it;
/// - malformed HTTP gets a 400, a head over ``ConnectionLimits/maxHeadBytes`` a 431, and the
///   connection is closed;
/// - a client that is slow to send a head or a body, or keeps a connection idle, is closed after
///   ``ConnectionLimits``' time limits (408 when part of a request was read), and a listener holds
///   at most ``ConnectionLimits/maxConnections`` connections (ConnectionDeadlines.swift);
/// - a graceful shutdown (the server's quiescing) closes idle connections at once and busy ones
///   after their current answer; before it, while ``Configuration/closesConnections`` says so
///   (the drain), every answer closes its connection;
/// - bodies are collected up to ``Configuration/maxRequestBodyBytes``; a longer body is read to its
///   end and dropped, and the responder sees a body that fails with `NIOTooManyBytesError`, as
///   Hummingbird's `collect(upTo:)` would;
/// - every answer carries `Date` and, when configured, `Server`; a body is sent with its
///   `Content-Length`, and none for `HEAD` requests.
///
/// Where the responder runs: on the connection's loop while the listener's ``EventLoopAffinity``
/// prefers it, else on ``PoolTaskExecutor``'s queue, as ``EventLoopTaskExecutor`` decides.
public struct HTTP1DispatchChannel: ServerChildChannel {
    /// Answers one request. It must not throw: errors are the responder's to turn into answers.
    public typealias Respond = @Sendable (Request, any Channel) async -> Response

    /// The channel's settings; a value, shared by every connection of the listener.
    public struct Configuration: Sendable {
        /// The largest request body collected, read when each request's head arrives (so a reload
        /// applies to the next request). Default 1 MiB.
        public var maxRequestBodyBytes: @Sendable () -> Int
        /// Time limits, the connection limit and the head size limit (``ConnectionLimits``).
        public var limits: ConnectionLimits
        /// Whether every answer now closes its connection (`Connection: close`): `true` while the
        /// instance drains, so keep-alive clients move to other instances while it still answers
        /// them. Asked once per answer.
        public var closesConnections: @Sendable () -> Bool
        /// Told each time a limit of ``limits`` closes a connection (metrics).
        public var limitReached: @Sendable (ConnectionLimitReached) -> Void
        /// The `Server` header's value on every answer; `nil` sends none.
        public var serverName: String?
        /// Where the `Date` header's time comes from.
        public var clock: any PassgateClock

        public init(
            maxRequestBodyBytes: @escaping @Sendable () -> Int = { 1 << 20 }, serverName: String? = nil,
            clock: any PassgateClock = SystemClock(), limits: ConnectionLimits = .init(),
            closesConnections: @escaping @Sendable () -> Bool = { false },
            limitReached: @escaping @Sendable (ConnectionLimitReached) -> Void = { _ in }
        ) {
            self.maxRequestBodyBytes = maxRequestBodyBytes
            self.serverName = serverName
            self.clock = clock
            self.limits = limits
            self.closesConnections = closesConnections
            self.limitReached = limitReached
        }

        /// Limits of NIO's HTTP/1 decoder from ``limits``: the request target and every field's
        /// name and value count towards one total, and no single one may pass it either. A
        /// hundred fields is more than any API client sends; NIO's default (65,534) lets a head
        /// within the byte limit still cost a header table entry per two bytes.
        public var decoderLimits: NIOHTTPDecoderLimitConfiguration {
            var decoder = NIOHTTPDecoderLimitConfiguration()
            decoder.maxHeaderFieldSize = limits.maxHeadBytes
            decoder.maxHeaderListSize = limits.maxHeadBytes
            decoder.maxHeaderFieldCount = 100
            return decoder
        }
    }

    /// The connection, for Hummingbird's `Server`, which awaits ``handle(value:logger:)`` per connection.
    public struct Value: ServerChildChannelValue {
        public let channel: any Channel
        /// Succeeds once the connection has closed and no request of it is still being answered.
        let finished: EventLoopFuture<Void>
    }

    public let respond: Respond
    public let configuration: Configuration
    /// Shared by every connection of the listener; `nil`: every request runs on the pool.
    public let affinity: EventLoopAffinity?
    /// The `Date` header, shared by every connection of the listener.
    let date: HTTPDateCache
    /// The listener's open connections, against ``ConnectionLimits/maxConnections``.
    public let connections: OpenConnections

    /// - Parameter requestsOnEventLoop: at most this many requests in flight run on their loops
    ///   (``EventLoopAffinity``); 0 or less: always on ``PoolTaskExecutor``'s queue.
    public init(requestsOnEventLoop: Int, configuration: Configuration = .init(), respond: @escaping Respond) {
        self.respond = respond
        self.configuration = configuration
        affinity = requestsOnEventLoop > 0 ? EventLoopAffinity(limit: requestsOnEventLoop) : nil
        date = HTTPDateCache(clock: configuration.clock)
        connections = OpenConnections(limit: configuration.limits.maxConnections)
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Over the limit: closed before anything is read, so it costs no buffers.
        guard connections.open() else {
            configuration.limitReached(.connections)
            channel.close(promise: nil)
            return channel.eventLoop.makeSucceededFuture(Value(channel: channel, finished: channel.eventLoop.makeSucceededVoidFuture()))
        }
        let connections = connections
        channel.closeFuture.whenComplete { _ in connections.closed() }
        return channel.eventLoop.makeCompletedFuture {
            // NIO's request decoder alone: the handler writes answers as bytes itself
            // (HTTP1ResponseHead), answers malformed HTTP itself, and orders pipelined requests
            // itself, so NIO's response encoder, protocol error handler and pipelining handler
            // are not in the pipeline.
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: configuration.decoderLimits)))
            let executor: any TaskExecutor = affinity.map { EventLoopTaskExecutor(channel.eventLoop, affinity: $0) } ?? PoolTaskExecutor.shared
            let finished = channel.eventLoop.makePromise(of: Void.self)
            do {
                try channel.pipeline.syncOperations.addHandler(
                    HTTP1DispatchHandler(channel: self, executor: executor, finished: finished, logger: logger))
            } catch {
                finished.fail(error)  // never handed to a handler: no one else would complete it
                throw error
            }
            return Value(channel: channel, finished: finished.futureResult)
        }
    }

    /// Waits for the connection to close and for the answer it may still be preparing; the loop
    /// and the responder tasks do the work. A request whose client has left still runs to its end
    /// (its token may be spent: the outcome must reach the replay cache and the audit log), and the
    /// server's shutdown waits for it here. Cancelled (the server stopping without grace), it
    /// closes the connection.
    public func handle(value: Value, logger: Logger) async {
        let channel = value.channel
        await withTaskCancellationHandler {
            try? await value.finished.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}
