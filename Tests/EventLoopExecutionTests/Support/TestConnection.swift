@testable import EventLoopExecution
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import Synchronization

/// One ``HTTP1DispatchChannel`` connection on a `NIOAsyncTestingChannel`: bytes in, bytes out,
/// and the loop's clock moved by hand, so the time limits are tested without waiting for them.
struct TestConnection {
    let channel: NIOAsyncTestingChannel
    let loop: NIOAsyncTestingEventLoop
    /// Completes once the connection is gone and no answer of it is being prepared: what the
    /// listener's shutdown waits for.
    let finished: EventLoopFuture<Void>
    /// The reads the connection's handlers let through to the socket.
    let reads: ReadCounter

    /// Answers `200 ok` to everything, or what `respond` answers; requests run on the pool.
    static func dispatch(
        _ configuration: HTTP1DispatchChannel.Configuration,
        respond: @escaping HTTP1DispatchChannel.Respond = { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok"))) }
    ) -> HTTP1DispatchChannel {
        HTTP1DispatchChannel(requestsOnEventLoop: 0, configuration: configuration, respond: respond)
    }

    /// A connection accepted by `dispatch` on `loop`, set up as the listener sets each one up.
    static func open(_ dispatch: HTTP1DispatchChannel, loop: NIOAsyncTestingEventLoop = NIOAsyncTestingEventLoop()) async throws -> TestConnection {
        let channel = NIOAsyncTestingChannel(loop: loop)
        let reads = ReadCounter()
        try await loop.submit { try channel.pipeline.syncOperations.addHandler(reads) }.get()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).get()
        let value = try await loop.flatSubmit { dispatch.setup(channel: channel, logger: Logger(label: "dispatch-test")) }.get()
        return TestConnection(channel: channel, loop: loop, finished: value.finished, reads: reads)
    }

    /// Asks for a read, as the channel does when it wants more bytes.
    func askToRead() async throws {
        try await loop.submit { channel.pipeline.read() }.get()
    }

    /// Tells the handlers the socket can take more output, or cannot.
    func setWritable(_ writable: Bool) async throws {
        channel.isWritable = writable
        try await loop.submit { channel.pipeline.fireChannelWritabilityChanged() }.get()
    }

    /// Has the pipeline see `event` (a half-close, the server's quiescing).
    func fire(_ event: any Sendable) async throws {
        try await loop.submit { channel.pipeline.fireUserInboundEventTriggered(event) }.get()
    }

    /// Whether `finished` has completed, once the loop has run what it was given.
    func hasFinished() async -> Bool {
        let done = DrainFlag()
        finished.whenComplete { _ in done.turnOn() }
        await loop.run()
        return done.isOn
    }

    func send(_ text: String) async throws {
        try await channel.writeInbound(ByteBuffer(string: text))
    }

    /// The next bytes written, once written (an answer comes from a task on the pool).
    func answer() async throws -> String {
        String(buffer: try await channel.waitForOutboundWrite(as: ByteBuffer.self))
    }

    /// Bytes already written and not read yet, if any.
    func written() async throws -> String? {
        try await channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) }
    }

    var isOpen: Bool { channel.isActive }

    /// Closes the connection if the test left it open: its pending timer goes with it.
    func finish() async throws {
        if channel.isActive { try await channel.close() }
    }

    func advance(by amount: TimeAmount) async {
        await loop.advanceTime(by: amount)
    }
}

/// Counts the reads that reach the socket: the first handler of a test connection's pipeline.
final class ReadCounter: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = Any
    private let count = Atomic(0)

    var reads: Int { count.load(ordering: .relaxed) }

    func read(context: ChannelHandlerContext) {
        count.add(1, ordering: .relaxed)
        context.read()
    }
}

/// The limits a listener reported reaching, in order.
final class LimitLog: Sendable {
    private let reasons = Mutex<[ConnectionLimitReached]>([])

    var reached: [ConnectionLimitReached] { reasons.withLock { $0 } }

    func record(_ reason: ConnectionLimitReached) {
        reasons.withLock { $0.append(reason) }
    }
}

/// A switch a test turns on, read by the channel (``HTTP1DispatchChannel/Configuration/closesConnections``)
/// or by the test.
final class DrainFlag: Sendable {
    private let on = Atomic(false)

    var isOn: Bool { on.load(ordering: .relaxed) }

    func turnOn() { on.store(true, ordering: .relaxed) }
}
