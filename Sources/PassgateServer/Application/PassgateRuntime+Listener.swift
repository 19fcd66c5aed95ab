import EventLoopExecution
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

extension PassgateRuntime {
    /// A listener: Hummingbird's `Server` with an `HTTP1DispatchChannel` in front of `router`.
    /// Each request goes from the event loop that read it straight to a responder task, without
    /// the per-connection async streams of Hummingbird's `HTTP1Channel`, which cost a large share
    /// of a request (bench/decisions/0016-http1-dispatch-channel.md). Its jobs run on that loop while at most
    /// `requestsOnEventLoop` requests are in flight, on the pool above that; the operations
    /// listeners pass 0, since their handlers read files (reload) or render the whole registry
    /// (metrics), which should not hold a loop that serves API sockets. All three listeners are
    /// built here, so they answer HTTP alike; Hummingbird's `Application` is not used at run time
    /// (its date cache formats through Foundation's calendar, which loads ICU: about 3 MB of
    /// resident memory at start, bench/decisions/0006-no-icu-at-start.md). `limits` bound how long a client may take and
    /// how many connections it holds (docs/operations.md, "The front door"); while
    /// `closesConnections` says so (the API listener's drain) every answer closes its connection.
    static func listener(
        router: Router<PassgateRequestContext>, host: String, port: Int, serverName: String, requestsOnEventLoop: Int,
        maxRequestBodyBytes: @escaping @Sendable () -> Int, limits: ConnectionLimits, closesConnections: @escaping @Sendable () -> Bool = { false },
        limitReached: @escaping @Sendable (ConnectionLimitReached) -> Void, eventLoops: any EventLoopGroup, logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) -> any Service {
        let responder = router.buildResponder()
        let configuration = HTTP1DispatchChannel.Configuration(
            maxRequestBodyBytes: maxRequestBodyBytes, serverName: serverName, limits: limits, closesConnections: closesConnections,
            limitReached: limitReached)
        let channel = HTTP1DispatchChannel(requestsOnEventLoop: requestsOnEventLoop, configuration: configuration) { request, channel in
            do {
                return try await responder.respond(to: request, context: PassgateRequestContext(source: .init(channel: channel, logger: logger)))
            } catch {
                // RequestLifecycleMiddleware turns every error into the envelope; only a failure
                // to build the envelope itself gets here.
                logger.error("request failed outside the error envelope", metadata: ["error": "\(String(reflecting: type(of: error)))"])
                return Response(status: .internalServerError)
            }
        }
        return Server(
            childChannelSetup: channel, configuration: .init(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: onServerRunning, eventLoopGroup: eventLoops, logger: logger)
    }
}
