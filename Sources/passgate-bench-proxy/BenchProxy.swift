import CurlTransport
import EventLoopExecution
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import UnixSignals

/// The benchmark's bare-proxy reference: Passgate's own stack (Hummingbird inbound, the Swift
/// cooperative pool, `CurlHTTPClient` outbound) with none of Passgate's work in between. It
/// forwards each POST body verbatim to the upstream and returns the upstream's status and body
/// verbatim, so `bench/run` can drive it with the same pre-signed bodies it sends straight to the
/// sandbox. Its CPU per request is what one inbound plus one outbound exchange costs on this
/// stack; what Passgate spends above it is Passgate's own work.
///
/// Usage: `passgate-bench-proxy PORT UPSTREAM_BASE_URL` (e.g. `8081 http://127.0.0.1:8090`).
/// `GET /healthz` answers 200 for readiness polling. Never built into the shipped image.
@main
struct BenchProxy {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let port = Int(arguments[1]), (1...65_535).contains(port),
              arguments[2].hasPrefix("http://")
        else {
            print("usage: passgate-bench-proxy PORT UPSTREAM_BASE_URL (e.g. 8081 http://127.0.0.1:8090)")
            exit(64)
        }
        let upstream = arguments[2].hasSuffix("/") ? String(arguments[2].dropLast()) : arguments[2]
        var logger = Logger(label: "passgate.bench-proxy")
        logger.logLevel = .warning

        var configuration = CurlHTTPClient.Configuration()
        // As Passgate's bench config sets them (maxConcurrentCalls 2048): no queueing in curl.
        configuration.maxConcurrentTransfers = 2_048
        configuration.maxConnections = 2_048
        let client = CurlHTTPClient(configuration: configuration, logger: logger)

        let router = Router()
        router.get("/healthz") { _, _ in HTTPResponse.Status.ok }
        router.post("**") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 * 1024)
            let reply = try await client.send(CurlHTTPClient.Request(
                method: .post, url: upstream + request.uri.path,
                headers: [(name: "Content-Type", value: "application/json")],
                body: Array(buffer: body)
            ))
            return Response(
                status: HTTPResponse.Status(code: reply.status),
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body))
            )
        }
        // Passgate's defaults for both (`ListenerDefaults`), so the bare stack is measured in the
        // shape Passgate runs in: the same listener as its API (`PassgateRuntime.listener`),
        // Hummingbird's `Server` with `HTTP1DispatchChannel`.
        let loopCount = ListenerDefaults.eventLoops(cores: System.coreCount)
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: loopCount)
        let responder = router.buildResponder()
        let requestLogger = logger
        let channel = HTTP1DispatchChannel(requestsOnEventLoop: ListenerDefaults.requestsOnEventLoop(loops: loopCount)) { request, channel in
            do {
                return try await responder.respond(to: request, context: BasicRequestContext(source: .init(channel: channel, logger: requestLogger)))
            } catch {
                return Response(status: .internalServerError)
            }
        }
        let server = Server(childChannelSetup: channel, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                            eventLoopGroup: eventLoops, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: client), .init(service: server)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        ))
        // Connection starts in the busy requests' queue, as in Passgate (`PoolTaskExecutor`).
        try await withTaskExecutorPreference(PoolTaskExecutor.shared) { try await group.run() }
        try await eventLoops.shutdownGracefully()
    }
}
