import Foundation
import PassgateCore

/// Reads, validates and resolves a Passgate configuration file in one pass, reporting every
/// problem at once (`ConfigurationError.problems`) so `passgate check-config` can list them all.
///
/// - Configuration keys (YAML; "override" is the environment variable that replaces the key's value):
///   - `server` (mapping, optional): the REST listener
///     - `host` (string, default: "127.0.0.1"; override `PASSGATE_SERVER_HOST`): address to listen on
///     - `port` (int 0-65535, default: 8080; override `PASSGATE_SERVER_PORT`): 0 picks a free port (tests)
///     - `maxBodyBytes` (int 1024-1048576, default: 16384; override `PASSGATE_SERVER_MAXBODYBYTES`): larger bodies get 413
///     - `drainSeconds` (int 0-300, default: 5; override `PASSGATE_SERVER_DRAINSECONDS`): serving time after SIGTERM
///       while `/readyz` answers 503
///     - `shutdownTimeoutSeconds` (int 1-300, default: 15; override `PASSGATE_SERVER_SHUTDOWNTIMEOUTSECONDS`): after the
///       drain, how long in-flight requests may take before the process exits anyway
///     - `eventLoops` (int 1-256, default: one per core; override `PASSGATE_SERVER_EVENTLOOPS`): NIO
///       event loop threads for the listeners' sockets, and for the API's requests (below)
///     - `requestsOnEventLoop` (int 0-4096, default: 64 per event loop; override
///       `PASSGATE_SERVER_REQUESTSONEVENTLOOP`): while at most this many requests are in flight on a listener, each
///       runs on the event loop that read it; above it, on Swift's pool (a thread per core); 0: always the pool
///   - `admin` (mapping, optional): the operations listener serving `POST /admin/reload`
///     - `host` (string, default: "127.0.0.1"; override `PASSGATE_ADMIN_HOST`): keep it on loopback
///     - `port` (int 0-65535, default: 8081; override `PASSGATE_ADMIN_PORT`)
///     - `apiKeySHA256` (64 hex, optional; override `PASSGATE_ADMIN_APIKEYSHA256`): SHA-256 of the admin key
///       (`Authorization: Bearer KEY`); without it the admin listener is off (SIGHUP still reloads)
///   - `metrics` (mapping, optional): the Prometheus listener serving `GET /metrics` (not on the API port)
///     - `enabled` (bool, default: true; override `PASSGATE_METRICS_ENABLED`)
///     - `host` (string, default: "127.0.0.1"; override `PASSGATE_METRICS_HOST`): 0.0.0.0 for a scraper on another host
///     - `port` (int 0-65535, default: 8082; override `PASSGATE_METRICS_PORT`): 0 picks a free port
///   - `log` (mapping, optional)
///     - `level` (string, default: "info"; override `PASSGATE_LOG_LEVEL`): trace, debug, info, notice, warning, error, critical
///     - `format` (string, default: "json"; override `PASSGATE_LOG_FORMAT`): json or text
///     - `writeDelayMs` (int 0-1000, default: 5; override `PASSGATE_LOG_WRITEDELAYMS`): `serve` writes log lines
///       from a thread of their own; under load a line waits at most this long to share one `write` with others.
///       0 writes each line from the thread that logs it
///   - `state` (mapping, optional): the replay cache
///     - `backend` (string, default: "memory"; override `PASSGATE_STATE_BACKEND`): memory (one instance) or redis (several)
///     - `redisURL` (string, default: "redis://127.0.0.1:6379/0"; override `PASSGATE_STATE_REDISURL`):
///       `redis://host[:port][/db]`, checked only when `backend` is redis
///     - `replayTTLSeconds` (int 130-86400, default: 300; override `PASSGATE_STATE_REPLAYTTLSECONDS`): must outlast
///       the carrier's 2-minute token life
///     - `redisPassword` (secret, optional; override `PASSGATE_STATE_REDISPASSWORD`): sent as `AUTH` on every
///       connection (a Redis with `requirepass` or ACL users)
///     - `redisUsername` (string, optional; override `PASSGATE_STATE_REDISUSERNAME`): the ACL user; needs `redisPassword`
///     - `replayKey` (secret, optional; override `PASSGATE_STATE_REPLAYKEY`): HMAC key for replay-cache keys,
///       64 hex characters or base64 of at least 32 bytes; absent means a random key per process (set it when
///       several instances share Redis)
///   - `providers` (mapping of provider id to mapping; the ids of the registry: `cmcc`); every provider's section
///     takes the same keys, shown here for `cmcc`
///     - `cmcc.baseURLs` (list of URLs, required unless `sandbox.enabled`): tried in order; absolute http(s), no query;
///       https unless the host is loopback (127.0.0.0/8, ::1, localhost)
///     - `cmcc.verifyBaseURLs` (list of URLs, optional): where number verifications go, for a provider that
///       serves them on another host (a separate verification product); absent: `baseURLs`. The same rules as `baseURLs`
///     - `cmcc.connectTimeoutMs` (int 50-60000, default: 1000; override `PASSGATE_PROVIDERS_CMCC_CONNECTTIMEOUTMS`)
///     - `cmcc.timeoutMs` (int 100-120000 and > connectTimeoutMs, default: 3000; override `PASSGATE_PROVIDERS_CMCC_TIMEOUTMS`):
///       the whole request
///     - `cmcc.caFile` (path, optional; override `PASSGATE_PROVIDERS_CMCC_CAFILE`): PEM CA bundle, must be readable
///     - `cmcc.proxy` (URL, optional; override `PASSGATE_PROVIDERS_CMCC_PROXY`): http(s)/socks egress proxy
///     - `cmcc.maxConcurrentCalls` (int 1-100000, default: 256; override `PASSGATE_PROVIDERS_CMCC_MAXCONCURRENTCALLS`):
///       calls to this carrier in flight at once from this instance
///     - `cmcc.callQueueTimeoutMs` (int 0-60000, default: 1000; override `PASSGATE_PROVIDERS_CMCC_CALLQUEUETIMEOUTMS`):
///       how long a call waits for a free slot; then it is answered `carrier_unavailable`, unsent (0: never wait)
///     - `cmcc.circuitFailureThreshold` (int 1-1000, default: 5; override `PASSGATE_PROVIDERS_CMCC_CIRCUITFAILURETHRESHOLD`):
///       consecutive carrier-side failures (transport, HTML, 5xx) that open a base URL's circuit
///     - `cmcc.circuitOpenMs` (int 100-600000, default: 10000; override `PASSGATE_PROVIDERS_CMCC_CIRCUITOPENMS`):
///       how long an open circuit skips its base URL before one probe
///     - `cmcc.eventLoop` (epoll or poll, default: epoll; override `PASSGATE_PROVIDERS_CMCC_EVENTLOOP`): epoll drives
///       libcurl with `curl_multi_socket_action` (Linux; other systems always poll), poll uses libcurl's portable loop
///   - `apps` (list of mappings, default: empty): provider apps; besides these two keys, each provider reads its own
///     (`CarrierProvider.readApp`); for `cmcc`:
///     - `appId` (string, required, unique): 1-64 letters, digits, `-`, `_` or `.`, no whitespace (CMCC answers 103119
///       for stray spaces); what clients send; for some providers also the provider's own appid (cmcc: letters and digits only)
///     - `provider` (string, default: "cmcc"): must be configured under `providers` (or be cmcc with the sandbox enabled)
///     - `signMode` (string, required): md5 or rsa
///     - `secret` (secret, required for md5): the MD5 sign secret (APPSecret, or the legacy appKey)
///     - `appKey` (secret, optional): the number-verification HMAC key; without it verification is not enabled
///     - `privateKey` (secret, required for rsa): RSA private key, PEM or base64 DER, PKCS#1 or PKCS#8, 1024-4096 bits;
///       `sandbox:NAME` (sandbox only) uses `<sandbox.keyDirectory>/NAME.pem`, generated on first use
///     the other providers' keys are listed on their docs pages (docs/<provider>.md) and read by
///     their own `readApp`
///   - `clients` (list of mappings, default: empty): callers of the REST API
///     - `id` (string, required, unique): 1-64 letters, digits, `-`, `_`, `.`
///     - `apiKeySHA256` (64 hex characters, required, unique): SHA-256 of the API key (`printf %s KEY | sha256sum`)
///     - `apps` (list of appIds, required, non-empty): every one must be configured under `apps`
///     - `ratePerSecond` (int >= 1, optional): token-bucket limit; absent means unlimited
///   - `sandbox` (mapping, optional): the embedded CMCC emulator
///     - `enabled` (bool, default: false; override `PASSGATE_SANDBOX_ENABLED`): also allows literal secrets and `sandbox:` keys
///     - `host` (string, default: "127.0.0.1"; override `PASSGATE_SANDBOX_HOST`): loopback only (127.0.0.0/8, ::1, localhost)
///     - `port` (int 0-65535, default: 8090; override `PASSGATE_SANDBOX_PORT`): 0 picks a free port
///     - `keyDirectory` (path, default: ".passgate/sandbox"; override `PASSGATE_SANDBOX_KEYDIRECTORY`): created 0700 when needed
///     - `fault` (string, default: "none"; override `PASSGATE_SANDBOX_FAULT`): one of the embedded sandbox's faults
///       (`passgate` accepts none, http500, http502, html, truncatedJSON, wrongInResponseTo, connectionReset, noAnswer)
///     - `latencyMs` (int 0-60000, default: 0; override `PASSGATE_SANDBOX_LATENCYMS`)
///   - `audit` (mapping, optional): the append-only log of carrier calls, one JSON line each (`passgate usage` reads it)
///     - `enabled` (bool, default: true; override `PASSGATE_AUDIT_ENABLED`)
///     - `path` (path, default: ".passgate/audit/audit.jsonl"; override `PASSGATE_AUDIT_PATH`): the current file, named
///       `*.jsonl`; rotated files (`audit-20261121T101500Z-0001.jsonl`) go beside it; directory created 0750
///     - `maxFileBytes` (int 4096-1099511627776, default: 67108864; override `PASSGATE_AUDIT_MAXFILEBYTES`): a file is
///       rotated before a line would take it past this size
///     - `fsyncIntervalMs` (int 0-60000, default: 1000; override `PASSGATE_AUDIT_FSYNCINTERVALMS`): how often written
///       lines are fsynced; 0 fsyncs after every line
///     - `writeDelayMs` (int 0-1000, default: 5; override `PASSGATE_AUDIT_WRITEDELAYMS`): under load, the longest a
///       line waits in memory to share one `write` with others; 0 writes each line as it comes
///     - `maxFiles` (int 0-100000, default: 10; override `PASSGATE_AUDIT_MAXFILES`): rotated files kept besides the
///       current one, the oldest beyond are deleted; 0 keeps every one
///     - `maxAgeDays` (int 0-36500, default: 0; override `PASSGATE_AUDIT_MAXAGEDAYS`): rotated files whose name's
///       rotation time is more than this many days ago are deleted; 0 is no age limit
///
/// - Secrets (`secret`, `appKey`, `privateKey`, `state.replayKey`) are references (`SecretReference`):
///   `env:NAME` (the injected environment), `file:PATH` (trailing newlines dropped), `sandbox:NAME` (`privateKey`
///   only, sandbox only) or a literal value (only when `sandbox.enabled` is true, or when the value comes straight
///   from an environment override such as `PASSGATE_STATE_REPLAYKEY`). A resolved `secret`, `appKey` or
///   `replayKey` must not have leading or trailing whitespace. Problem messages never contain a secret's value.
///
/// - Environment overrides: `PASSGATE_<SECTION>_<KEY>` (upper-cased, no separators inside the key) replaces every
///   scalar key of `server`, `log`, `state`, `sandbox`, `audit` and `providers.cmcc` (`PASSGATE_PROVIDERS_CMCC_<KEY>`).
///   An empty variable counts as unset. Invalid values are problems that name the variable.
///
/// - Relative paths (`file:` secrets, `caFile`, `sandbox.keyDirectory`, `audit.path`) resolve against the process's current
///   working directory, as most command-line tools do, not against the config file's directory: run
///   `passgate` from the checkout (or deployment) root. `load(yaml:baseDirectory:)` takes the directory explicitly.
///   The loaded `caFile`, `keyDirectory` and `audit.path` are absolute.
///
/// - Booleans accept true/false, yes/no, on/off and 1/0; choices (levels, formats, modes, faults) match
///   case-insensitively; a key whose value is empty, `~` or `null` counts as absent.
public struct ConfigurationLoader: Sendable {
    /// Where `passgate serve` and `check-config` look without `--config`.
    public static let defaultPath = "config/passgate.yaml"

    /// The environment that `env:NAME` secrets and `PASSGATE_…` overrides are read from.
    public var environment: [String: String]
    /// The providers `providers:` and `apps[].provider` may name; each reads its own apps. The
    /// configuration knows no provider itself: whoever composes the service passes the list
    /// (`passgate` its built-in one, a test its own).
    public var registry: ProviderRegistry
    /// The values `sandbox.fault` accepts: `none` plus the faults of the sandbox that will run
    /// next to the server. The configuration does not know the sandbox; whoever composes it
    /// (`passgate serve`) passes its fault list here, so the list is kept in one place.
    public var sandboxFaults: [String]
    /// What the files the configuration names are read through (`file:` secrets, `caFile`, the
    /// audit path, `sandbox:` keys): the file system, or ``ConfigurationFiles/refusing`` for a
    /// document nobody vouches for. The configuration file of `load(path:)` is read directly.
    public var files: ConfigurationFiles

    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, registry: ProviderRegistry,
        sandboxFaults: [String] = ["none"], files: ConfigurationFiles = .system
    ) {
        self.environment = environment
        self.registry = registry
        self.sandboxFaults = sandboxFaults.contains("none") ? sandboxFaults : ["none"] + sandboxFaults
        self.files = files
    }

    /// Loads the file at `path`; relative paths inside it resolve against the current working directory.
    public func load(path: String) throws(ConfigurationError) -> PassgateConfiguration {
        let hint = path == Self.defaultPath ? "; run passgate from the checkout root or pass --config PATH" : "; check the --config path"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ConfigurationError(problems: [ConfigurationProblem(path: "", message: "configuration file: '\(path)' is a directory\(hint)")])
        }
        let text: String
        do {
            text = try SecretReference.readText(path)
        } catch {
            throw ConfigurationError(problems: [ConfigurationProblem(path: "", message: "configuration file: \(error.description)\(hint)")])
        }
        return try load(yaml: text, baseDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Loads configuration text; relative paths inside it resolve against `baseDirectory`.
    public func load(yaml: String, baseDirectory: String) throws(ConfigurationError) -> PassgateConfiguration {
        let reader = ConfigurationReader(
            environment: environment, baseDirectory: baseDirectory, registry: registry, sandboxFaults: sandboxFaults, files: files)
        guard let configuration = reader.read(yaml: yaml) else {
            throw ConfigurationError(problems: reader.orderedProblems)
        }
        return configuration
    }
}
