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

    /// The same framing, closing the connection after the answer.
    func closing() -> ResponseFraming {
        var framing = self
        framing.keepAlive = false
        return framing
    }
}

extension HTTP1DispatchHandler {
    /// Writes one whole answer and flushes it: the head, the body if any, the end; then starts the
    /// next pending request, or closes the connection. On the loop.
    func write(context: ChannelHandlerContext, answer: HTTPResponse, body: ByteBuffer?, to framing: ResponseFraming) {
        answered()
        guard !removed else {
            finished.succeed()
            return
        }
        let framing = closesAfterThisAnswer ? framing.closing() : framing
        var head = HTTPResponseHead(answer)
        head.headers.replaceOrAdd(name: "Date", value: channel.date.now())
        if let serverName = channel.configuration.serverName {
            head.headers.replaceOrAdd(name: "Server", value: serverName)
        }
        let status = answer.status.code
        let bodyAllowed = status >= 200 && status != 204 && status != 304
        if bodyAllowed, !head.headers.contains(name: "content-length") {
            head.headers.add(name: "content-length", value: String(body?.readableBytes ?? 0))
        }
        if !framing.keepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        } else if framing.saysKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if bodyAllowed, framing.sendsBody, let body, body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        }
        guard !framing.keepAlive else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            startNext(context: context)
            writeContinueIfDue(context: context)
            return
        }
        closing = true
        // Closed once the answer is on the wire, not before: a close drops unwritten bytes.
        let connection = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            connection.close(promise: nil)
        }
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
