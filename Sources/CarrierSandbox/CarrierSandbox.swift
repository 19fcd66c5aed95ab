import PassgateCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The providers' servers on one port: a host for every registered provider's emulator
/// (``ProviderEmulator``, in the provider's own folder), which checks signatures, timestamps,
/// ids and the allow list and answers with the provider's codes. The host mints SDK-like one-time
/// tokens and keeps their ledger (single use, expiry, quotas), injects faults and latency, and
/// counts. Built directly on SwiftNIO so faults such as a TCP reset are produced exactly.
///
/// Use it as a `Service` in a `ServiceGroup`, or call ``start()`` and ``shutdown()`` yourself.
/// See `docs/sandbox.md` for the endpoints.
public final class CarrierSandbox: Service, Sendable {
    /// The configuration the sandbox was created with (runtime controls do not change it).
    public let configuration: SandboxConfiguration
    let engine: SandboxEngine
    let logger: Logger
    let lifecycle = Mutex(Lifecycle())

    struct Lifecycle {
        var startTask: Task<SandboxListener, any Error>?
        var shutdownTask: Task<Void, Never>?
        var listener: SandboxListener?
        var port: Int?
    }

    /// Creates a sandbox; nothing is bound until ``start()`` or ``run()``.
    ///
    /// - Parameters:
    ///   - configuration: apps, listen address, lifetimes, initial fault and latency.
    ///   - registry: the providers whose emulators answer (``ProviderRegistry/emulators``); the
    ///     first is the default provider of `PUT /sandbox/faults`.
    ///   - clock: the carrier's "now" for token expiry and timestamp checks (pin it in tests).
    ///   - logger: one debug line per carrier call (path, appid, msgid, result code, fault);
    ///     tokens are never logged and numbers only masked. The default discards everything.
    public init(
        configuration: SandboxConfiguration, registry: ProviderRegistry, clock: any PassgateClock = SystemClock(),
        logger: Logger = Logger(label: "passgate.sandbox", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.logger = logger
        self.engine = SandboxEngine(configuration: configuration, emulators: registry.emulators, clock: clock, logger: logger)
    }

    deinit {
        // Never shut down (no ServiceGroup, no shutdown()): stop the threads rather than leak them.
        lifecycle.withLock { state in
            guard state.shutdownTask == nil, let listener = state.listener else { return }
            listener.group.shutdownGracefully { _ in }
        }
    }

    /// The bound port once ``start()`` has returned, else `nil`.
    public var port: Int? { lifecycle.withLock { $0.port } }

    /// Replaces the emulated apps (e.g. after the embedding Passgate reloaded rotated credentials).
    public func replaceApps(_ apps: [EmulatedApp]) { engine.replaceApps(apps) }

    /// What the sandbox has counted so far.
    public var stats: SandboxStats { engine.stats }

    /// The providers whose servers the sandbox answers for, on one port, in registration order.
    public var emulatedProviders: [String] { engine.emulatedProviders }

    /// Changes the fault injected into carrier answers from the next request on.
    public func setFault(_ fault: SandboxFault) {
        engine.runtime.withLock { $0.fault = fault }
    }

    /// Replaces the client allow list (`nil` = any peer) from the next request on.
    public func setAllowedClientIPs(_ addresses: [String]?) {
        engine.runtime.withLock { $0.allowedClientIPs = addresses.map { Set($0.map(EmulatorRequest.unmapped)) } }
    }

    /// Mints a one-time token for `phoneNumber`, exactly as `POST /sandbox/tokens` does.
    ///
    /// - Throws: ``SandboxError`` for an unknown app, a number that is not a mainland mobile
    ///   number, or more than 30 unused tokens for the number in 10 minutes (outside bench mode).
    public func mintToken(appId: String, phoneNumber: String, product: SandboxProduct = .login) throws -> String {
        try engine.mint(appId: appId, phoneNumber: phoneNumber, product: product)[0]
    }

    /// Mints `count` tokens at once (1 to 10,000; bench mode only, like the HTTP endpoint).
    public func mintTokens(appId: String, phoneNumber: String, product: SandboxProduct = .login, count: Int) throws -> [String] {
        guard configuration.benchMode else {
            throw SandboxError.field("count", "batch minting needs the sandbox in benchMode")
        }
        guard (1...SandboxEngine.maxBatch).contains(count) else {
            throw SandboxError.field("count", "must be from 1 to \(SandboxEngine.maxBatch)")
        }
        return try engine.mint(appId: appId, phoneNumber: phoneNumber, product: product, count: count)
    }

    /// Registers a caller-chosen token as if the SDK had just issued it, for replaying published
    /// test vectors. It must have the SDK token shape (`STsid`, 16+ digits, base62, 50-60 chars).
    public func registerToken(_ token: String, appId: String, phoneNumber: String, product: SandboxProduct = .login) throws {
        try engine.register(token: token, appId: appId, phoneNumber: phoneNumber, product: product)
    }
}
