import PassgateCore
import Logging
import OpenSSLCrypto

/// The whole, validated configuration, with every secret resolved. Built by
/// `ConfigurationLoader`; immutable afterwards (a reload builds a new one).
public struct PassgateConfiguration: Sendable {
    public var server: ServerSettings
    /// The admin listener (`POST /admin/reload`); off unless a key hash is configured.
    public var admin = AdminSettings()
    public var log: LogSettings
    public var state: StateSettings
    /// Keyed by provider id (`cmcc`). Every app's provider is here once loaded; with the sandbox
    /// enabled `cmcc` is always present, with no `baseURLs` unless the file gives some.
    public var providers: [String: ProviderSettings]
    public var apps: [AppSettings]
    public var clients: [ClientSettings]
    public var sandbox: SandboxSettings
    /// The carrier-call audit log (`AuditSettings`).
    public var audit = AuditSettings()
    /// Request spans exported over OTLP/HTTP (`TracingSettings`); off by default.
    public var tracing = TracingSettings()
    /// The Prometheus listener (`GET /metrics`), apart from the public API.
    public var metrics = MetricsSettings()
    /// The providers apps may use, by id: the registry the loader's caller gave it (`passgate`
    /// passes its built-in list). Empty in a configuration built by hand until the caller sets it.
    public var registry = ProviderRegistry([])
    /// Every secret the loader resolved, by its key's path: where it came from and its
    /// fingerprint, never its value (the console's configuration page). Not a section of the file.
    public var secrets: [SecretSource] = []

    public init(
        server: ServerSettings = .init(), log: LogSettings = .init(), state: StateSettings = .init(),
        providers: [String: ProviderSettings] = [:], apps: [AppSettings] = [], clients: [ClientSettings] = [],
        sandbox: SandboxSettings = .init()
    ) {
        self.server = server
        self.log = log
        self.state = state
        self.providers = providers
        self.apps = apps
        self.clients = clients
        self.sandbox = sandbox
    }

    /// The app with `appId`, if configured.
    public func app(_ appId: String) -> AppSettings? { apps.first { $0.appId == appId } }
}

/// `server:` - the REST listener.
public struct ServerSettings: Sendable, Equatable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests).
    public var port = 8080
    /// Larger request bodies get 413 `payload_too_large`.
    public var maxBodyBytes = 16_384
    /// How long the listener keeps serving after SIGTERM so the load balancer can take the instance out.
    public var drainSeconds = 5
    /// After the drain period: how long in-flight requests (carrier calls included) may still take.
    public var shutdownTimeoutSeconds = 15
    /// NIO event loop threads serving the listeners' sockets and running the API's requests; `nil`: one per core.
    public var eventLoops: Int?
    /// While at most this many requests are in flight on a listener, each runs on the event loop
    /// that read it (one thread per request, no hand-off to Swift's pool and back); above it they
    /// run on Swift's cooperative pool (a thread per core), which shares work between cores under
    /// load. `nil`: 64 per event loop; 0: always the pool.
    public var requestsOnEventLoop: Int?
    /// The longest a client may take to send a request's head: from its first byte, or from the
    /// accept for a connection's first request. Then 408 (or a silent close if nothing came).
    public var headerTimeoutMs = 10_000
    /// The longest a client may take to send a request's body, from the end of its head; then 408.
    public var bodyTimeoutMs = 10_000
    /// How long a keep-alive connection may sit with no request; then it is closed. Longer than a
    /// load balancer's own idle timeout (60 s on the common ones), so the balancer, not Passgate,
    /// closes a connection both sides think idle and never sends on one Passgate just closed.
    public var idleTimeoutMs = 75_000
    /// Open connections the API listener holds at most; one more is closed as soon as it is accepted.
    public var maxConnections = 16_384
    /// The request line and header fields together, in bytes; a longer head gets 431 and a close.
    public var maxHeaderBytes = 8_192
    /// Requests per minute that may fail authentication from one source address (the TCP peer:
    /// behind a load balancer, the balancer's address) before its requests get 429 without their
    /// key being checked; 0 turns the limit off.
    public var authFailuresPerMinute = 60

    public init() {}
}

/// `admin:` - a separate listener for operations (`POST /admin/reload`), loopback by default.
public struct AdminSettings: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8081
    /// SHA-256 of the admin key; `nil` leaves the admin listener off (SIGHUP still reloads).
    public var apiKeySHA256: [UInt8]?
    /// A console session (`/console`) ends after this many minutes without a request.
    public var consoleIdleMinutes = 30
    /// A console session ends this many minutes after sign-in, however active (the cookie's Max-Age).
    public var consoleSessionMinutes = 480
    /// Console sessions held at once; a sign-in beyond it ends the one idle longest.
    public var consoleMaxSessions = 20
    /// Marks the session cookie `Secure` on every answer, for a TLS front that does not send
    /// `X-Forwarded-Proto: https` (with it, the cookie is `Secure` anyway).
    public var consoleSecureCookie = false

    public var isEnabled: Bool { apiKeySHA256 != nil }

    public init() {}
}

/// `metrics:` - a listener of its own for `GET /metrics`, so the service's internals (call
/// volumes, hosts, error mix) are not served on the public API port to whoever can reach it.
public struct MetricsSettings: Sendable, Equatable {
    /// Off: no metrics listener at all (the metrics are still counted, for nothing to read them).
    public var enabled = true
    /// Loopback by default; `0.0.0.0` where a scraper on another host reads it (Kubernetes).
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests).
    public var port = 8082

    public init() {}
}

/// `log:` - structured logging.
public struct LogSettings: Sendable, Equatable {
    /// JSON lines (default, for log shippers) or human-readable text.
    public enum Format: String, Sendable, CaseIterable { case json, text }

    public var level: Logger.Level = .info
    public var format: Format = .json
    /// Under load, the longest a line waits in memory to share one `write` to standard output with
    /// others (a dedicated thread writes them); 0 writes each line from the thread that logs it.
    public var writeDelayMs = 5

    public init() {}
}

/// `state:` - where replay-cache entries live.
public struct StateSettings: Sendable, Equatable, RedactedDescription {
    public enum Backend: String, Sendable, CaseIterable { case memory, redis }

    public var backend: Backend = .memory
    public var redisURL = "redis://127.0.0.1:6379/0"
    /// Resolved `redisPassword` secret: `AUTH` on every connection; `nil` for a Redis without one.
    public var redisPassword: String?
    /// `redisUsername`: the Redis 6 ACL user; `nil` means the default user.
    public var redisUsername: String?
    public var replayTTLSeconds = 300
    /// Resolved `replayKey` bytes (HMAC key for replay-cache keys); `nil` means generated per process.
    public var replayKey: [UInt8]?
    /// A shared store's claim on a token lives this long unless its request renews it (every third
    /// of it while the call waits and runs); only a stopped instance's claim lapses.
    public var claimLeaseMs = 5_000
    /// How long a request that finds another instance's live claim on its token waits for that
    /// call's outcome before answering `call_in_progress`.
    public var inFlightWaitMs = 5_000

    public init() {}

    /// The Redis password and the replay key are secrets; the URL is left out as well, in case a
    /// password was typed into it (the reader refuses one only when the backend is Redis).
    public var redactedFields: [(label: String, value: String)] {
        [
            ("backend", backend.rawValue), ("redisUsername", redisUsername ?? "default"),
            ("redisPassword", redisPassword == nil ? "none" : "set"), ("replayTTLSeconds", "\(replayTTLSeconds)"),
            ("replayKey", replayKey == nil ? "generated" : "set"), ("claimLeaseMs", "\(claimLeaseMs)"),
            ("inFlightWaitMs", "\(inFlightWaitMs)"),
        ]
    }
}

/// `providers.<id>:` - how to reach a carrier.
public struct ProviderSettings: Sendable, Equatable, RedactedDescription {
    public var id: String
    /// Tried in order (fail-over only when a request provably never left).
    public var baseURLs: [String]
    /// Where number verifications go instead, for a provider that serves them on another host
    /// (an aggregator whose verification product has hosts of its own); empty: ``baseURLs``, as for most providers. Tried in order too.
    public var verifyBaseURLs: [String] = []
    public var connectTimeoutMs = 1000
    public var timeoutMs = 3000
    /// PEM CA bundle for the carrier's TLS (absolute once loaded); `nil` means the system's.
    public var caFile: String?
    /// Egress proxy URL for libcurl (http, https, socks4(a), socks5(h)); may carry credentials, so never log it.
    public var proxy: String?
    /// Calls to this carrier in flight at once from this instance; more wait for a slot.
    public var maxConcurrentCalls = 256
    /// How long a call waits for a slot when `maxConcurrentCalls` are in flight; then it is not
    /// made and the client gets `carrier_unavailable` (unsent, retryable). 0: never wait.
    public var callQueueTimeoutMs = 1000
    /// Consecutive transport failures after which a base URL's circuit opens.
    public var circuitFailureThreshold = 5
    /// How long an open circuit skips its base URL before one probe is let through.
    public var circuitOpenMs = 10_000
    /// How the transport thread waits for the carrier's sockets: epoll with
    /// `curl_multi_socket_action` (cost follows the sockets with events), or `poll`, libcurl's
    /// portable loop (cost follows the calls in flight). A fallback, and the benchmark's reference.
    public var eventLoop = EventLoop.epoll

    /// See ``eventLoop``.
    public enum EventLoop: String, Sendable, Equatable, CaseIterable {
        case epoll, poll
    }

    public init(id: String, baseURLs: [String]) {
        self.id = id
        self.baseURLs = baseURLs
    }

    /// The proxy URL may carry credentials: only whether one is set.
    public var redactedFields: [(label: String, value: String)] {
        [
            ("id", id), ("baseURLs", baseURLs.joined(separator: ",")), ("verifyBaseURLs", verifyBaseURLs.joined(separator: ",")),
            ("timeoutMs", "\(timeoutMs)"),
            ("proxy", proxy == nil ? "none" : "set"), ("maxConcurrentCalls", "\(maxConcurrentCalls)"),
        ]
    }
}

/// `apps[]:` - one app of one provider, its settings validated by that provider when the
/// configuration was loaded (`CarrierProvider.readApp`): an app that cannot sign never loads.
public struct AppSettings: Sendable {
    public let appId: String
    /// The provider id (`cmcc`), a key of the registry.
    public let provider: String
    /// The provider's own settings and credentials (a `CMCCApp` for `cmcc`).
    public let settings: any ProviderApp

    public init(provider: String, settings: any ProviderApp) {
        appId = settings.appId
        self.provider = provider
        self.settings = settings
    }

    /// A digest of the provider and its settings: two loads of the same files compare equal, a
    /// rotated secret or key does not.
    public var fingerprint: [UInt8] { Array(provider.utf8) + [0] + settings.fingerprint }
}

/// `clients[]:` - a caller of the REST API.
public struct ClientSettings: Sendable, Equatable {
    public var id: String
    /// SHA-256 of the API key (32 bytes); the key itself is never configured.
    public var apiKeySHA256: [UInt8]
    /// The appIds this client may use.
    public var apps: Set<String>
    /// Token-bucket rate; `nil` means unlimited.
    public var ratePerSecond: Int?

    public init(id: String, apiKeySHA256: [UInt8], apps: Set<String>, ratePerSecond: Int? = nil) {
        self.id = id
        self.apiKeySHA256 = apiKeySHA256
        self.apps = apps
        self.ratePerSecond = ratePerSecond
    }
}

/// `sandbox:` - the embedded CMCC emulator (never in production).
public struct SandboxSettings: Sendable, Equatable {
    public var enabled = false
    /// A loopback address only (``isAllowedHost(_:)``): the sandbox answers with real-looking
    /// numbers for tokens anyone can mint, and its keys are test keys.
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 8090
    /// Where `sandbox:NAME` keys are generated and kept between starts (absolute once loaded).
    public var keyDirectory = ".passgate/sandbox"
    /// Optional fault injection for the embedded sandbox: one of the loader's `sandboxFaults`
    /// other than `none`, spelled as there; `nil` means none.
    public var fault: String?
    public var latencyMs = 0

    public init() {}

    /// Whether the sandbox may listen on `host`: 127.0.0.0/8, ::1 or localhost.
    public static func isAllowedHost(_ host: String) -> Bool {
        URLRules.isLoopback(host)
    }

    /// Why a host is refused, for a message that starts with the setting's name.
    public static let hostRule = "must be a loopback address (127.0.0.0/8, ::1 or localhost): "
        + "the sandbox mints tokens for anyone who asks and signs with test keys, so it is never reachable from other machines"
}

