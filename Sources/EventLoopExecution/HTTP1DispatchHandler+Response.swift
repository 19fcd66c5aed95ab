import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// How an answer is framed for the request it answers: whether the connection stays open after
/// it, and whether a body may follow the head.
struct ResponseFraming: Sendable {
    /// Whether the connection stays open for the next request.
    var keepAlive: Bool
    /// An HTTP/1.0 client keeps the connection only when the answer says so.
    var saysKeepAlive: Bool
    /// A `HEAD` request's answer has the head (with the body's length) and no body.
    var sendsBody: Bool

    init(_ head: HTTPRequestHead, keepAlive: Bool? = nil) {
        self.keepAlive = keepAlive ?? head.isKeepAlive
        saysKeepAlive = head.version.major == 1 && head.version.minor == 0
        sendsBody = head.method != .HEAD
    }

    /// An answer that closes the connection where no request could be read (malformed HTTP).
    static let closingWithoutRequest = ResponseFraming(keepAlive: false, saysKeepAlive: false, sendsBody: true)

    private init(keepAlive: Bool, saysKeepAlive: Bool, sendsBody: Bool) {
        self.keepAlive = keepAlive
        self.saysKeepAlive = saysKeepAlive
        self.sendsBody = sendsBody
    }

    /// The same framing, closing the connection after the answer.
    func closing() -> ResponseFraming {
        var framing = self
        framing.keepAlive = false
        return framing
    }
}

extension HTTP1DispatchHandler {
    /// Bodies up to this size go out in the head's buffer (one copy, one buffer); larger ones as
    /// a second buffer of their own.
    static let bodyBytesCopiedWithHead = 16 * 1024

    /// Writes one whole answer and flushes it: the head and the body if any; then runs the
    /// request's deferred work (``AfterAnswer``), and has the machine end the request's turn
    /// (``HTTP1DispatchStateMachine/answerFinished(now:)``). On the loop.
    ///
    /// The request counts as being answered until its deferred work has run: the connection's
    /// `finished`, which the server's shutdown waits for, cannot come before the audit record.
    func write(
        context: ChannelHandlerContext, answer: HTTPResponse, body: ByteBuffer?, to framing: ResponseFraming,
        then after: AfterAnswer.Work? = nil
    ) {
        let action = machine.answerReady(keepAlive: framing.keepAlive, closesConnections: channel.configuration.closesConnections())
        guard case .write(let keepAlive) = action else {
            finishAnswer(after, context: context)
            return
        }
        let framing = keepAlive ? framing : framing.closing()
        let additions = HTTP1ResponseHead.Additions(
            date: channel.date.now(), server: channel.configuration.serverName,
            connection: !framing.keepAlive ? "close" : framing.saysKeepAlive ? "keep-alive" : nil)
        let sent = HTTP1ResponseHead.hasBody(answer.status) && framing.sendsBody ? body : nil
        let bodyLength = sent?.readableBytes ?? 0
        let copied = bodyLength <= Self.bodyBytesCopiedWithHead
        var bytes = context.channel.allocator.buffer(capacity: 256 + (copied ? bodyLength : 0))
        HTTP1ResponseHead.write(answer, bodyLength: body?.readableBytes ?? 0, additions: additions, into: &bytes)
        if var sent, copied {
            bytes.writeBuffer(&sent)
        } else if let sent {
            context.write(wrapOutboundOut(bytes), promise: nil)
            bytes = sent
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
        } else {
            // Closed once the answer is on the wire, not before: a close drops unwritten bytes.
            let connection = context.channel
            context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in
                connection.close(promise: nil)
            }
        }
        finishAnswer(after, context: context)
    }

    /// The answer is written: runs its deferred work, then ends the request's turn. A pipeline
    /// that dropped the handler meanwhile (the write found the connection gone) waited for this.
    private func finishAnswer(_ after: AfterAnswer.Work?, context: ChannelHandlerContext) {
        after?.run()
        perform(machine.answerFinished(now: context.eventLoop.now), context: context)
    }
}

/// Collects a Hummingbird `ResponseBody` into one buffer, so the loop writes the whole answer at
/// once. Passgate's answers are small JSON documents built in one buffer; a streamed body is
/// collected the same way.
struct ResponseBodyCollector: ResponseBodyWriter {
    private final class Storage {
        var buffer: ByteBuffer?
    }

    private let storage = Storage()

    mutating func write(_ buffer: ByteBuffer) async throws {
        if storage.buffer == nil {
            storage.buffer = buffer
        } else {
            var buffer = buffer
            storage.buffer!.writeBuffer(&buffer)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}

    /// The answer's head and body. A body that fails while it is produced turns the answer into
    /// an empty 500 that closes the connection (`failed`): nothing of it has been sent yet.
    static func collect(_ response: Response) async -> (head: HTTPResponse, body: ByteBuffer?, failed: Bool) {
        let collector = ResponseBodyCollector()
        let storage = collector.storage
        do {
            try await response.body.write(collector)
            return (response.head, storage.buffer, false)
        } catch {
            return (HTTPResponse(status: .internalServerError), nil, true)
        }
    }
}

/// The body a request sees when it was longer than the channel collects: reading it fails with
/// the error Hummingbird's `collect(upTo:)` throws for a body over its limit.
struct OversizedRequestBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let limit: Int
        mutating func next() async throws -> ByteBuffer? {
            throw NIOTooManyBytesError(maxBytes: limit)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(limit: limit)
    }
}
