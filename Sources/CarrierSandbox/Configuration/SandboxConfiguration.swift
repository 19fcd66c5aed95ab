import PassgateCore

/// Everything a ``CarrierSandbox`` needs, as a value with defaults.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `host` | `127.0.0.1` | listen address |
/// | `port` | 0 | listen port; 0 picks an ephemeral one (``CarrierSandbox/start()`` returns it) |
/// | `apps` | `[]` | the apps the sandbox knows (each provider's emulator makes them: ``ProviderEmulator/emulatedApp(_:)``); any other appid is unknown to the providers |
/// | `tokenLifetimeSeconds` | 120 | how long a minted token is valid (the real 2 minutes) |
/// | `maxClockSkewSeconds` | 300 | largest accepted distance of `systemtime`/`timestamp` from the sandbox clock |
/// | `allowedClientIPs` | `nil` | `nil` accepts any peer; else other peers get 103511 / 124 |
/// | `fault` | `.none` | the fault injected into carrier answers (changeable at run time) |
/// | `latencyMs` | 0 | delay before every carrier answer (changeable at run time) |
/// | `benchMode` | `false` | batch minting (`count`), no per-number token limit |
/// | `threads` | `nil` | event loop threads; `nil` = `System.coreCount` |
/// | `maxBodyBytes` | 65536 | request body cap; larger bodies get 413 |
public struct SandboxConfiguration: Sendable {
    /// Listen address.
    public var host: String
    /// Listen port; 0 = ephemeral.
    public var port: Int
    /// The emulated apps.
    public var apps: [EmulatedApp]
    /// Lifetime of a minted token.
    public var tokenLifetimeSeconds: Int
    /// Largest accepted skew between a request's Beijing time and the sandbox clock.
    public var maxClockSkewSeconds: Int
    /// Peers (IPv4 or IPv6 text) allowed to call the carrier endpoints; `nil` = any.
    public var allowedClientIPs: [String]?
    /// Initial fault for carrier answers.
    public var fault: SandboxFault
    /// Initial delay before each carrier answer, in milliseconds.
    public var latencyMs: Int
    /// Benchmark mode: `POST /sandbox/tokens` accepts `count` (up to 10,000) and the limit of
    /// 30 unused tokens per number per 10 minutes is lifted. Signatures and encryption stay real.
    public var benchMode: Bool
    /// Event loop threads; `nil` uses `System.coreCount`.
    public var threads: Int?
    /// Request body cap in bytes.
    public var maxBodyBytes: Int

    /// A configuration; every field has the default listed in the table above.
    public init(
        host: String = "127.0.0.1", port: Int = 0, apps: [EmulatedApp] = [], tokenLifetimeSeconds: Int = 120,
        maxClockSkewSeconds: Int = 300, allowedClientIPs: [String]? = nil, fault: SandboxFault = .none,
        latencyMs: Int = 0, benchMode: Bool = false, threads: Int? = nil, maxBodyBytes: Int = 64 * 1024
    ) {
        self.host = host
        self.port = port
        self.apps = apps
        self.tokenLifetimeSeconds = tokenLifetimeSeconds
        self.maxClockSkewSeconds = maxClockSkewSeconds
        self.allowedClientIPs = allowedClientIPs
        self.fault = fault
        self.latencyMs = latencyMs
        self.benchMode = benchMode
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
    }

    /// Every problem with this configuration, empty when it can start.
    func problems() -> [String] {
        var problems: [String] = []
        if !(0...65535).contains(port) { problems.append("port \(port) is outside 0-65535") }
        if tokenLifetimeSeconds <= 0 { problems.append("tokenLifetimeSeconds must be positive") }
        if maxClockSkewSeconds < 0 { problems.append("maxClockSkewSeconds must not be negative") }
        if latencyMs < 0 { problems.append("latencyMs must not be negative") }
        if let threads, threads < 1 { problems.append("threads must be at least 1") }
        if maxBodyBytes < 1024 { problems.append("maxBodyBytes must be at least 1024") }
        var seen = Set<String>()
        for app in apps {
            if !seen.insert(app.appId).inserted { problems.append("appId \(app.appId) is listed twice") }
            if let quota = app.quota, quota < 0 { problems.append("app \(app.appId): quota must not be negative") }
        }
        return problems
    }
}
