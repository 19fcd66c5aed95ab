import PassgateCore
import ProviderAliyun
import ProviderCMCC
import ProviderJVerification
import ProviderShanyan
import Logging
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

/// The sandbox's behaviour, free of networking: routes a complete request to its endpoint and
/// decides the answer. Called concurrently from every event loop; state lives in `Mutex`es held
/// only for short bookkeeping, never during crypto.
final class SandboxEngine: Sendable {
    let configuration: SandboxConfiguration
    /// Replaced whole when the embedding Passgate reloads its configuration.
    private let appTable: Mutex<[String: SandboxApp]>
    var apps: [String: SandboxApp] { appTable.withLock { $0 } }
    let clock: any WallClock
    let logger: Logger
    let ledger: Mutex<SandboxLedger>
    let runtime: Mutex<RuntimeSettings>

    init(configuration: SandboxConfiguration, clock: any WallClock, logger: Logger) {
        self.configuration = configuration
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
            allowedClientIPs: configuration.allowedClientIPs.map { Set($0.map(SandboxRequest.unmapped)) }
        ))
    }

    /// The apps from now on (credentials rotated, apps added or removed); quotas stay as they were.
    func replaceApps(_ apps: [SandboxApp]) {
        appTable.withLock { $0 = Self.table(apps) }
    }

    /// The apps by appId (the last of a repeated appId wins). An aggregator knows an app by its
    /// appKey, which has one secret there: of several apps sharing an appKey, the first is the
    /// provider's, and the others' credentials are wrong, as they would be at the provider.
    static func table(_ apps: [SandboxApp]) -> [String: SandboxApp] {
        var appKeys: Set<String> = []
        let reachable = apps.filter { app in
            guard app.provider != CMCC.providerID, let appKey = app.appKey else { return true }
            return appKeys.insert(appKey).inserted
        }
        return Dictionary(reachable.map { ($0.appId, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Routes one request.
    func handle(_ request: SandboxRequest) -> SandboxAnswer {
        switch request.path {
        case CMCCLoginRequest.path:
            guard request.method == "POST" else { return Self.methodNotAllowed(request, allowed: "POST") }
            return carrierCall(.login, request)
        case CMCCVerifyRequest.path:
            guard request.method == "POST" else { return Self.methodNotAllowed(request, allowed: "POST") }
            return carrierCall(.verify, request)
        case let path where Self.jverificationPaths[path] != nil:
            // JiGuang answers a wrong method with its own code (9013), not an HTTP 405.
            return carrierCall(Self.jverificationPaths[path]!, request, provider: JVerification.providerID)
        case let path where Self.shanyanPaths[path] != nil:
            return carrierCall(Self.shanyanPaths[path]!, request, provider: Shanyan.providerID)
        case "/":
            // Alibaba Cloud's RPC endpoint: the operation is the Action parameter.
            return carrierCall(.login, request, provider: Aliyun.providerID)
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

    /// Validates a carrier call, records it, then lets the current fault shape the answer.
    private func carrierCall(_ endpoint: CarrierOutcome.Endpoint, _ request: SandboxRequest, provider: String = CMCC.providerID) -> SandboxAnswer {
        let settings = runtime.withLock { $0 }
        let now = clock.nowMilliseconds()
        var outcome = switch (provider, endpoint) {
        case (JVerification.providerID, _): validateJVerification(endpoint, request, settings: settings, now: now)
        case (Shanyan.providerID, _): validateShanyan(endpoint, request, settings: settings, now: now)
        case (Aliyun.providerID, _): validateAliyun(request, settings: settings, now: now)
        case (_, .login): validateLogin(request, settings: settings, now: now)
        case (_, .verify): validateVerify(request, settings: settings, now: now)
        }
        if let forced = settings.forcedResultCode, forced.provider == outcome.provider, outcome.isSuccess { outcome = outcome.forced(forced.code) }
        ledger.withLock { ledger in
            switch outcome.endpoint {
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

    private static func methodNotAllowed(_ request: SandboxRequest, allowed: String) -> SandboxAnswer {
        .error(405, "\(request.path) accepts \(allowed) only", headers: [("Allow", allowed)])
    }
}
