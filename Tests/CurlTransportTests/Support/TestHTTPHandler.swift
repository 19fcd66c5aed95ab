import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// Serves ``TestHTTPServer``'s routes on one connection.
final class TestHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let stats: ServerStats
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var answering = false

    init(stats: ServerStats) {
        self.stats = stats
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.removeAll()
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            answering = true
            stats.update {
                $0.requests += 1
                $0.activeRequests += 1
                $0.maxActiveRequests = max($0.maxActiveRequests, $0.activeRequests)
            }
            route(head, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finishRequest()
        context.fireChannelInactive()
    }

    private func finishRequest() {
        guard answering else { return }
        answering = false
        stats.update { $0.activeRequests -= 1 }
    }

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let parts = head.uri.split(separator: "/").map(String.init)
        let argument = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        switch parts.first ?? "" {
        case "echo":
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "X-Echo-Method", value: head.method.rawValue)
            headers.add(name: "X-Echo-Content-Type", value: head.headers.first(name: "Content-Type") ?? "")
            headers.add(name: "X-Echo-Test", value: head.headers.first(name: "X-Test") ?? "")
            // Every User-Agent line, so a test can see one sent twice.
            headers.add(name: "X-Echo-User-Agent", value: head.headers["User-Agent"].joined(separator: "|"))
            respond(context: context, status: .ok, headers: headers, body: body)
        case "status":
            respond(context: context, status: HTTPResponseStatus(statusCode: argument), body: Array("status \(argument)".utf8))
        case "bytes":
            respond(context: context, status: .ok, body: TestHTTPServer.pattern(argument))
        case "chunked":
            respondChunked(context: context, body: TestHTTPServer.pattern(argument))
        case "delay":
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .milliseconds(Int64(argument))) {
                let (handler, context) = bound.value
                guard context.channel.isActive else { return }
                handler.respond(context: context, status: .ok, body: Array("ok".utf8))
            }
        case "gate":
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let eventLoop = context.eventLoop
            stats.whenGateOpens {
                eventLoop.execute {
                    let (handler, context) = bound.value
                    guard context.channel.isActive else { return }
                    handler.respond(context: context, status: .ok, body: Array("ok".utf8))
                }
            }
        case "close-at-gate":
            // Answers keep-alive, then closes the idle connection when the test opens the gate:
            // a server's idle timeout, at the moment the test chooses.
            respond(context: context, status: .ok, body: Array("ok".utf8))
            let channel = context.channel
            stats.whenGateOpens { channel.close(promise: nil) }
        case "hang":
            break
        case "reset":
            resetMidResponse(context: context)
        default:
            respond(context: context, status: .notFound, body: Array("no route".utf8))
        }
    }

    private func respond(
        context: ChannelHandlerContext, status: HTTPResponseStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]
    ) {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Length", value: "\(body.count)")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        finishRequest()
    }

    private func respondChunked(context: ChannelHandlerContext, body: [UInt8]) {
        let headers: HTTPHeaders = ["Transfer-Encoding": "chunked"]
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + 8192)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body[offset..<end])))), promise: nil)
            offset = end
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        finishRequest()
    }

    private func resetMidResponse(context: ChannelHandlerContext) {
        let headers: HTTPHeaders = ["Content-Length": "1000"]
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: Array(repeating: 65, count: 10))))), promise: nil)
        let channel = context.channel
        // SO_LINGER with a zero timeout turns close() into a TCP RST instead of an orderly FIN.
        let provider = channel as? any SocketOptionProvider
        let lingerSet = provider?.setSoLinger(linger(l_onoff: 1, l_linger: 0)) ?? channel.eventLoop.makeSucceededVoidFuture()
        lingerSet.whenComplete { _ in
            channel.eventLoop.scheduleTask(in: .milliseconds(50)) { channel.close(promise: nil) }
        }
    }
}
