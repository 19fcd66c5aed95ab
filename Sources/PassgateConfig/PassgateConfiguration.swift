import PassgateCore
import ProviderCMCC
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
    /// The Prometheus listener (`GET /metrics`), apart from the public API.
    public var metrics = MetricsSettings()

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

    public init() {}
}

/// `admin:` - a separate listener for operations (`POST /admin/reload`), loopback by default.
public struct AdminSettings: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8081
    /// SHA-256 of the admin key; `nil` leaves the admin listener off (SIGHUP still reloads).
    public var apiKeySHA256: [UInt8]?

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

    public init() {}
}

/// `state:` - where replay-cache entries live.
public struct StateSettings: Sendable, Equatable {
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

    public init() {}
}

/// `providers.<id>:` - how to reach a carrier.
public struct ProviderSettings: Sendable, Equatable {
    public var id: String
    /// Tried in order (fail-over only when a request provably never left).
    public var baseURLs: [String]
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
}

/// `apps[]:` - one carrier app and its credentials (resolved), checked once when it is made:
/// an app that cannot sign never exists, so no request can find it unable to.
public struct AppSettings: Sendable {
    public enum SignMode: String, Sendable, CaseIterable { case md5, rsa }

    /// Why an app cannot be made; the configuration reader reports the same problems with key paths.
    public struct InvalidCredentials: Error, Sendable, Equatable, CustomStringConvertible {
        public let appId: String
        public let problem: String
        public var description: String { "app \(appId): \(problem)" }
    }

    public let appId: String
    public let provider: String
    public let signMode: SignMode
    /// MD5-mode sign secret (APPSecret or legacy appKey); present and non-empty for `md5`.
    public let secret: String?
    /// Number-verification HMAC key; optional (without it verification answers `app_not_enabled`).
    public let appKey: String?
    /// RSA-mode private key; present for `rsa`.
    public let privateKey: RSAPrivateKey?
    /// The credentials ProviderCMCC signs with, built once here.
    public let cmccApp: CMCCApp

    public init(
        appId: String, provider: String = CMCC.providerID, signMode: SignMode, secret: String? = nil, appKey: String? = nil,
        privateKey: RSAPrivateKey? = nil
    ) throws(InvalidCredentials) {
        let login: CMCCLoginSigning
        switch signMode {
        case .md5:
            guard let secret, !secret.isEmpty else {
                throw InvalidCredentials(appId: appId, problem: "signMode md5 needs a non-empty secret (the APPSecret)")
            }
            login = .md5(secret: secret)
        case .rsa:
            guard let privateKey else { throw InvalidCredentials(appId: appId, problem: "signMode rsa needs a privateKey") }
            login = .rsa(privateKey: privateKey)
        }
        if let appKey, appKey.isEmpty { throw InvalidCredentials(appId: appId, problem: "appKey is empty: leave it out, or set the app's appKey") }
        self.appId = appId
        self.provider = provider
        self.signMode = signMode
        self.secret = secret
        self.appKey = appKey
        self.privateKey = privateKey
        cmccApp = CMCCApp(appId: appId, login: login, verify: appKey.map { .appKey($0) })
    }
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
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 8090
    /// Where `sandbox:NAME` keys are generated and kept between starts (absolute once loaded).
    public var keyDirectory = ".passgate/sandbox"
    /// Optional fault injection for the embedded sandbox (see `CarrierSandbox`): one of `faults`
    /// other than `none`, spelled as there; `nil` means none.
    public var fault: String?
    public var latencyMs = 0

    /// The `sandbox.fault` values the loader accepts (`none` is loaded as `nil`).
    public static let faults = ["none", "http500", "http502", "html", "truncatedJSON", "wrongInResponseTo", "connectionReset", "noAnswer"]

    public init() {}
}

extension AppSettings {
    /// A digest of this app's settings and credentials (the key by its public half): two loads of
    /// the same files compare equal, a rotated secret or key does not. A digest, so no secret is
    /// copied around for a comparison.
    public var fingerprint: [UInt8] {
        let key = privateKey.flatMap { try? $0.publicKey.der() } ?? []
        let fields = [appId, provider, signMode.rawValue, secret ?? "", appKey ?? "", Hex.lowercase(key)]
        return (try? Digest.sha256(Array(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))) ?? []
    }
}
