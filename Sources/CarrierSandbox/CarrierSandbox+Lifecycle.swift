import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

extension CarrierSandbox {
    /// Binds the listener and returns the actual port. Idempotent: later and concurrent calls
    /// return the same port (or the same error).
    ///
    /// - Throws: ``SandboxError`` for an invalid configuration or once ``shutdown()`` was called;
    ///   NIO's error when the address cannot be bound.
    @discardableResult
    public func start() async throws -> Int {
        let task = try lifecycle.withLock { state throws -> Task<SandboxListener, any Error> in
            guard state.shutdownTask == nil else { throw SandboxError(.shutDown, message: "the sandbox was shut down") }
            if let task = state.startTask { return task }
            let engine = self.engine
            let configuration = self.configuration
            let task = Task<SandboxListener, any Error> {
                let problems = configuration.problems()
                guard problems.isEmpty else {
                    throw SandboxError(.invalidConfiguration, message: problems.joined(separator: "; "))
                }
                return try await SandboxListener.bind(engine: engine, configuration: configuration)
            }
            state.startTask = task
            return task
        }
        let listener = try await task.value
        let port = listener.port
        let first = lifecycle.withLock { state in
            defer { (state.port, state.listener) = (port, listener) }
            return state.port == nil
        }
        if first {
            logger.info("sandbox listening", metadata: [
                "host": .string(configuration.host), "port": .stringConvertible(port),
                "apps": .stringConvertible(configuration.apps.count), "fault": .string(configuration.fault.rawValue),
                "benchMode": .stringConvertible(configuration.benchMode),
            ])
        }
        return port
    }

    /// Starts if needed and serves until a graceful shutdown of the service group, cancellation
    /// of the task, or ``shutdown()``; then closes the listener and every connection (held
    /// `noAnswer` ones included) before returning.
    public func run() async throws {
        do {
            try await start()
        } catch let error as SandboxError where error.kind == .shutDown {
            return  // shut down before the service group got to run it
        }
        guard let listener = try? await lifecycle.withLock({ $0.startTask })?.value else { return }
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                try? await listener.channel.closeFuture.get()
            } onCancel: {
                _ = self.beginShutdown()
            }
        } onGracefulShutdown: {
            _ = self.beginShutdown()
        }
        await beginShutdown().value
    }

    /// Closes the listener and all connections and stops the event loops. Safe to call more
    /// than once and before ``start()``; returns when everything is closed.
    public func shutdown() async {
        await beginShutdown().value
    }

    /// The one shutdown task, created on first use.
    func beginShutdown() -> Task<Void, Never> {
        lifecycle.withLock { state in
            if let task = state.shutdownTask { return task }
            let startTask = state.startTask
            let logger = self.logger
            let task = Task {
                guard let listener = try? await startTask?.value else { return }
                await listener.close()
                logger.info("sandbox stopped")
            }
            state.shutdownTask = task
            return task
        }
    }
}
