import Logging
import PassgateCore
import Synchronization

/// Settings that tests and demos change while the sandbox runs.
struct RuntimeSettings: Sendable {
    var fault: SandboxFault
    var latencyMs: Int
    var allowedClientIPs: Set<String>?
    /// When set, a call to this provider that would succeed is answered with this result code
    /// instead (its token spent), so a backend can see how it handles every code the provider documents.
    var forcedResultCode: (provider: String, code: String)?
}

/// The sandbox's behaviour, free of networking: routes a complete request to the emulator that
/// serves its path, or to the sandbox's own endpoints, and shapes the answer. Called concurrently
/// from every event loop; state lives in `Mutex`es held only for short bookkeeping, never during
/// crypto.
final class SandboxEngine: Sendable {
    let configuration: SandboxConfiguration
    /// The emulators in registration order; the first is the default of `PUT /sandbox/faults`.
    let emulators: [any ProviderEmulator]
    /// Every emulated path, and who answers it.
    private let routes: [String: (emulator: any ProviderEmulator, route: EmulatorRoute)]
    /// Replaced whole when the embedding Passgate reloads its configuration.
    private let appTable: Mutex<[String: EmulatedApp]>
    var apps: [String: EmulatedApp] { appTable.withLock { $0 } }
    let clock: any PassgateClock
    let logger: Logger
    let ledger: Mutex<SandboxLedger>
    let runtime: Mutex<RuntimeSettings>

    init(configuration: SandboxConfiguration, emulators: [any ProviderEmulator], clock: any PassgateClock, logger: Logger) {
        self.configuration = configuration
        self.emulators = emulators
        var routes: [String: (emulator: any ProviderEmulator, route: EmulatorRoute)] = [:]
        for emulator in emulators {
            for route in emulator.routes(for: configuration.apps) where routes[route.path] == nil { routes[route.path] = (emulator, route) }
        }
        self.routes = routes
        let apps = Self.table(configuration.apps)
        self.appTable = Mutex(apps)
        self.clock = clock
        self.logger = logger
        let quotas = apps.compactMapValues(\.quota)
        self.ledger = Mutex(SandboxLedger(
            lifetimeMs: Int64(configuration.tokenLifetimeSeconds) * 1000, benchMode: configuration.benchMode, quotas: quotas
        ))
        self.runtime = Mutex(RuntimeSettings(
            fault: configuration.fault, latencyMs: max(0, configuration.latencyMs),
            allowedClientIPs: configuration.allowedClientIPs.map { Set($0.map(EmulatorRequest.unmapped)) }
        ))
    }

    /// The apps from now on (credentials rotated, apps added or removed); quotas stay as they were.
    func replaceApps(_ apps: [EmulatedApp]) {
        appTable.withLock { $0 = Self.table(apps) }
    }

    /// The apps by appId (the last of a repeated appId wins). A provider that knows an app by an
    /// account key (an aggregator's appKey) has one secret for it: of several apps sharing one,
    /// the first is the provider's, and the others' credentials are wrong, as they would be there.
    static func table(_ apps: [EmulatedApp]) -> [String: EmulatedApp] {
        var accountKeys: Set<[String]> = []
        let reachable = apps.filter { app in
            guard let accountKey = app.credentials.accountKey else { return true }
            return accountKeys.insert([app.provider, accountKey]).inserted
        }
        return Dictionary(reachable.map { ($0.appId, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Routes one request.
    func handle(_ request: EmulatorRequest) -> SandboxAnswer {
        if let (emulator, route) = routes[request.path] {
            if let method = route.method, request.method != method { return Self.methodNotAllowed(request, allowed: method) }
            return carrierCall(emulator, route, request)
        }
        switch request.path {
        case "/sandbox/tokens":
            guard request.method == "POST" else { return Self.methodNotAllowed(request, allowed: "POST") }
            return mintEndpoint(request.body)
        case "/sandbox/stats":
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed(request, allowed: "GET") }
            return .json(200, JSONWriter.stats(stats))
        case "/sandbox/faults":
            guard request.method == "PUT" else { return Self.methodNotAllowed(request, allowed: "PUT") }
            return faultsEndpoint(request.body)
        default:
            return .error(404, "no route for \(request.method) \(request.path)")
        }
    }

    var stats: SandboxStats { ledger.withLock { $0.stats } }

    /// An answer starts waiting out the latency (the listener's scheduled reply).
    func delayStarted() {
        ledger.withLock { ledger in
            ledger.stats.answersDelayedNow += 1
            ledger.stats.mostAnswersDelayedAtOnce = max(ledger.stats.mostAnswersDelayedAtOnce, ledger.stats.answersDelayedNow)
        }
    }

    /// A delayed answer is written (or its connection gone).
    func delayEnded() { ledger.withLock { $0.stats.answersDelayedNow -= 1 } }

    /// Lets the emulator decide a carrier call, records it, then lets the current fault shape the answer.
    private func carrierCall(_ emulator: any ProviderEmulator, _ route: EmulatorRoute, _ request: EmulatorRequest) -> SandboxAnswer {
        let settings = runtime.withLock { $0 }
        let call = EmulatorCall(
            request: request, product: route.product, now: clock.nowMilliseconds(), apps: apps,
            isClientAllowed: Self.isAllowed(request.peerIP, settings), maxClockSkewSeconds: configuration.maxClockSkewSeconds, ledger: self)
        var outcome = emulator.answer(call)
        if let forced = settings.forcedResultCode, forced.provider == outcome.provider, outcome.isSuccess { outcome = outcome.forced(forced.code) }
        ledger.withLock { ledger in
            switch outcome.product {
            case .login:
                ledger.stats.loginCalls += 1
                ledger.stats.loginResultCodes[outcome.code, default: 0] += 1
            case .verify:
                ledger.stats.verifyCalls += 1
                ledger.stats.verifyResultCodes[outcome.code, default: 0] += 1
            }
            if settings.fault != .none { ledger.stats.faultsApplied[settings.fault.rawValue, default: 0] += 1 }
        }
        var metadata: Logger.Metadata = [
            "path": .string(request.path), "provider": .string(outcome.provider), "appid": .string(outcome.appId), "msgid": .string(outcome.echo),
            "resultCode": .string(outcome.code), "fault": .string(settings.fault.rawValue),
        ]
        if let phone = outcome.phoneNumber { metadata["phone"] = .string(MSISDN.mask(phone)) }
        logger.debug("carrier call", metadata: metadata)
        var answer = SandboxAnswer(action: settings.fault.action(for: outcome))
        answer.delayMs = settings.latencyMs
        return answer
    }

    /// Whether `peerIP` may call the carrier endpoints under `settings`.
    static func isAllowed(_ peerIP: String?, _ settings: RuntimeSettings) -> Bool {
        guard let allowed = settings.allowedClientIPs else { return true }
        guard let peerIP else { return false }
        return allowed.contains(peerIP)
    }

    private static func methodNotAllowed(_ request: EmulatorRequest, allowed: String) -> SandboxAnswer {
        .error(405, "\(request.path) accepts \(allowed) only", headers: [("Allow", allowed)])
    }
}

/// Emulators spend tokens, remember msgids and charge quotas through the engine's ledger.
extension SandboxEngine: EmulatorLedger {
    func noteMessageID(_ key: String, now: Int64) -> Bool {
        ledger.withLock { $0.noteMsgid(key, now: now) }
    }

    func consume(_ token: String, now: Int64) -> TokenLookup {
        ledger.withLock { $0.consume(token, now: now) }
    }

    func charge(appId: String) -> Bool {
        ledger.withLock { $0.charge(appId: appId) }
    }
}
