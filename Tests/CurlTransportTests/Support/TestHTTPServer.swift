import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// What a test server has seen, shared by its channels.
final class ServerStats: Sendable {
    struct Values: Sendable {
        var accepted = 0
        var closed = 0
        var requests = 0
        var activeRequests = 0
        var maxActiveRequests = 0
    }

    private let values = Mutex(Values())
    /// `/gate`'s gate: whether it is open, and the answers held until it opens.
    private let gate = Mutex<(open: Bool, held: [@Sendable () -> Void])>((false, []))

    var snapshot: Values { values.withLock { $0 } }

    func update(_ body: (inout Values) -> Void) {
        values.withLock { body(&$0) }
    }

    /// Lets every held `/gate` request answer, and later ones answer at once, until ``closeGate()``.
    func openGate() {
        let held = gate.withLock { state -> [@Sendable () -> Void] in
            state.open = true
            defer { state.held.removeAll() }
            return state.held
        }
        for answer in held { answer() }
    }

    /// Makes `/gate` requests wait for the next ``openGate()``.
    func closeGate() {
        gate.withLock { $0.open = false }
    }

    /// Runs `answer` now if the gate is open, else when it opens.
    func whenGateOpens(_ answer: @escaping @Sendable () -> Void) {
        let openNow = gate.withLock { state -> Bool in
            if !state.open { state.held.append(answer) }
            return state.open
        }
        if openNow { answer() }
    }
}

/// A purpose-built HTTP/1.1 server on an ephemeral loopback port, one per test.
///
/// Routes (the path decides the behaviour):
/// - `/echo`: 200, the request body back, plus `X-Echo-Method`, `X-Echo-Content-Type`, `X-Echo-Test`
/// - `/status/N`: status N, body `status N`
/// - `/bytes/N`: N bytes of a fixed binary pattern, with Content-Length
/// - `/chunked/N`: the same bytes, chunked (no Content-Length)
/// - `/delay/MS`: `ok` after MS milliseconds
/// - `/gate`: `ok` once the test opens the gate (``ServerStats/openGate()``); holds calls open
///   for exactly as long as a test needs, however slowly the machine runs
/// - `/hang`: never answers
/// - `/close-at-gate`: `ok`, keep-alive, then closes the idle connection when the gate opens
/// - `/reset`: promises 1000 bytes, sends 10, then closes with SO_LINGER 0 (a TCP RST)
final class TestHTTPServer: Sendable {
    let stats: ServerStats
    let port: Int
    private let channel: any Channel

    private init(channel: any Channel, stats: ServerStats) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
        self.stats = stats
    }

    static func start(
        backlog: Int32 = 256, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> TestHTTPServer {
        let stats = ServerStats()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: backlog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                stats.update { $0.accepted += 1 }
                channel.closeFuture.whenComplete { _ in stats.update { $0.closed += 1 } }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(TestHTTPHandler(stats: stats))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TestHTTPServer(channel: channel, stats: stats)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func close() async {
        try? await channel.close()
    }

    /// The binary pattern `/bytes/N` and `/chunked/N` serve: every byte value, no obvious period.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7 &+ ($0 >> 8)) }
    }
}

/// A server that accepts connections and never reads or writes: requests hang, TLS handshakes stall.
final class SilentServer: Sendable {
    let stats: ServerStats
    let port: Int
    private let channel: any Channel

    private init(channel: any Channel, stats: ServerStats) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
        self.stats = stats
    }

    static func start() async throws -> SilentServer {
        let stats = ServerStats()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                stats.update { $0.accepted += 1 }
                channel.closeFuture.whenComplete { _ in stats.update { $0.closed += 1 } }
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return SilentServer(channel: channel, stats: stats)
    }

    func close() async {
        try? await channel.close()
    }
}
