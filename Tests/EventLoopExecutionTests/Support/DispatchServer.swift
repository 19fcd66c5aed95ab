import EventLoopExecution
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import PassgateTestSupport
import ServiceLifecycle

/// A real listener on a loopback port: Hummingbird's `Server` with an ``HTTP1DispatchChannel`` in
/// front of `router`, as Passgate's API listener is built.
enum DispatchServer {
    /// Runs the server for the duration of `body`, which gets its port, then shuts it down gracefully.
    static func with(
        router: Router<BasicRequestContext>,
        requestsOnEventLoop: Int = 1,
        configuration: HTTP1DispatchChannel.Configuration = .init(serverName: "dispatch-test"),
        _ body: (_ port: Int, _ group: ServiceGroup) async throws -> Void
    ) async throws {
        let logger = Logger(label: "dispatch-test")
        let responder = router.buildResponder()
        let channel = HTTP1DispatchChannel(requestsOnEventLoop: requestsOnEventLoop, configuration: configuration) { request, channel in
            do {
                return try await responder.respond(to: request, context: BasicRequestContext(source: .init(channel: channel, logger: logger)))
            } catch {
                return Response(status: .internalServerError)
            }
        }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let server = Server(
            childChannelSetup: channel, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) },
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: logger)
        let group = ServiceGroup(services: [server], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = await iterator.next() ?? 0
            do {
                try await body(port, group)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}

/// One answer as it came over the wire.
struct WireResponse {
    var status: Int
    /// Field names lowercased.
    var headers: [String: String]
    var body: String
}

extension LoopbackSocket {
    /// Reads one HTTP/1.1 answer framed by `Content-Length` (no body when there is none, or when
    /// `bodyless`: the answer to a `HEAD`).
    func readResponse(bodyless: Bool = false) async throws -> WireResponse {
        let head = String(decoding: try await read(through: Array("\r\n\r\n".utf8)), as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        let body = String(decoding: try await read(count: length), as: UTF8.self)
        return WireResponse(status: Int(statusLine[1]) ?? 0, headers: headers, body: body)
    }
}

extension LoopbackSocket {
    /// `GET path` on this connection; the answer's body.
    func get(_ path: String) async throws -> String {
        try send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        return try await readResponse().body
    }
}
