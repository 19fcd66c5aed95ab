import EventLoopExecution
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
    /// `eventLoopGroup`: the shared group (a loop per core) unless a test needs its connections on
    /// one loop, where what the loop does for one connection is ordered with what it does for another.
    static func with(
        router: Router<BasicRequestContext>,
        requestsOnEventLoop: Int = 1,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
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
            eventLoopGroup: eventLoopGroup, logger: logger)
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
