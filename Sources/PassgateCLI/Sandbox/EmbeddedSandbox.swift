import CarrierSandbox
import Logging
import OpenSSLCrypto
import PassgateConfig
import PassgateCore
import PassgateServer
import UnixSignals

/// The providers' sandbox composed next to the server, as `passgate serve` runs it when
/// `sandbox.enabled` is true: started first (so the providers can be pointed at its port),
/// stopped last, and told about every reloaded configuration. The server never imports it.
public struct EmbeddedSandbox: Sendable {
    public let sandbox: CarrierSandbox
    /// The port it listens on (the configured one, or the one the system picked for 0).
    public let port: Int

    /// Runs `runtime` with the embedded sandbox when its configuration enables one, else alone.
    /// `onReady` gets the listeners' ports and the sandbox's.
    public static func serve(
        _ runtime: PassgateRuntime, signals: [UnixSignal] = [],
        onReady: @escaping @Sendable (PassgateRuntime.Endpoints, _ sandboxPort: Int?) async -> Void = { _, _ in }
    ) async throws {
        var composed = runtime
        let embedded = try await start(&composed.configuration, clock: runtime.clock, logger: runtime.makeLogger(label: "passgate.sandbox"))
        if let embedded { composed = embedded.composed(composed) }
        do {
            try await composed.run(signals: signals) { endpoints in await onReady(endpoints, embedded?.port) }
        } catch {
            // The server may have failed before its services ran (a refused state backend): the
            // sandbox must not stay bound. Shutting down twice is harmless.
            await embedded?.sandbox.shutdown()
            throw error
        }
    }

    /// Starts the sandbox when `configuration.sandbox.enabled`, hosting the emulators of the
    /// configuration's registry, and points the providers it emulates at it; nil when the sandbox is off.
    public static func start(_ configuration: inout PassgateConfiguration, clock: any PassgateClock, logger: Logger) async throws -> EmbeddedSandbox? {
        guard configuration.sandbox.enabled else { return nil }
        let sandbox = CarrierSandbox(configuration: configuration.sandboxConfiguration, registry: configuration.registry, clock: clock, logger: logger)
        let port = try await sandbox.startNamingItsAddress()
        configuration.pointProvidersAtSandbox(port: port)
        return EmbeddedSandbox(sandbox: sandbox, port: port)
    }

    /// `runtime` with this sandbox as a companion service and reload hooks.
    public func composed(_ runtime: PassgateRuntime) -> PassgateRuntime {
        var runtime = runtime
        let sandbox = sandbox, port = port
        runtime.companions.insert(sandbox, at: 0)
        runtime.prepareReload = { configuration in
            if configuration.sandbox.enabled { configuration.pointProvidersAtSandbox(port: port) }
        }
        runtime.didReload = { configuration in sandbox.replaceApps(configuration.sandboxConfiguration.apps) }
        return runtime
    }
}

extension CarrierSandbox {
    /// ``start()``, with a failure to take its address reported as a ``ListenerBindError`` that
    /// names `sandbox.host` and `sandbox.port`.
    func startNamingItsAddress() async throws -> Int {
        do {
            return try await start()
        } catch {
            let settings = configuration
            throw ListenerBindError(error, listener: "sandbox", host: settings.host, port: settings.port, section: "sandbox") ?? error
        }
    }
}

extension PassgateConfiguration {
    /// The sandbox emulates every configured app whose provider brings an emulator, with the
    /// same credentials (a provider console would hold the public half of each private key).
    public var sandboxConfiguration: SandboxConfiguration {
        var sandbox = SandboxConfiguration()
        sandbox.host = self.sandbox.host
        sandbox.port = self.sandbox.port
        sandbox.latencyMs = self.sandbox.latencyMs
        sandbox.fault = self.sandbox.fault.flatMap(SandboxFault.init(rawValue:)) ?? .none
        sandbox.apps = apps.compactMap { registry[$0.provider]?.emulator?.emulatedApp($0.settings) }
        return sandbox
    }
}
