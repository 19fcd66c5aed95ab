import EventLoopExecution
import NIOCore
import NIOHTTP1
import NIOPosix

/// A bound listening socket with its event loops and connections.
struct SandboxListener: Sendable {
    let group: MultiThreadedEventLoopGroup
    let channel: any Channel
    let connections: ConnectionRegistry

    var port: Int { channel.localAddress?.port ?? 0 }

    /// Binds `host:port` and serves `engine` on every accepted connection.
    static func bind(engine: SandboxEngine, configuration: SandboxConfiguration) async throws -> SandboxListener {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.threads ?? System.coreCount)
        // The API listener's limits (ConnectionLimits' defaults): a slow or silent client is closed
        // after the head, body or idle timeout, and surplus connections on accept.
        let limits = ConnectionLimits()
        let connections = ConnectionRegistry(limit: limits.maxConnections)
        let maxBodyBytes = configuration.maxBodyBytes
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.maxMessagesPerRead, value: 16)
                .childChannelInitializer { channel in
                    guard connections.register(channel) else {
                        return channel.eventLoop.makeSucceededVoidFuture()
                    }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                            withPipeliningAssistance: true, withErrorHandling: true
                        )
                        try channel.pipeline.syncOperations.addHandler(SandboxHTTPHandler(engine: engine, maxBodyBytes: maxBodyBytes, limits: limits))
                    }
                }
                .bind(host: configuration.host, port: configuration.port)
                .get()
            return SandboxListener(group: group, channel: channel, connections: connections)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Closes the listener, then every connection (held ones too), then the event loops.
    func close() async {
        try? await channel.close()
        await connections.closeAll()
        try? await group.shutdownGracefully()
    }
}
