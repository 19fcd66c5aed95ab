import Logging
import Yams

/// The scalar sections: `server`, `log`, `state` and `sandbox`, each with environment overrides.
extension ConfigurationReader {
    static let overridePrefix = "PASSGATE_"

    static func overridePrefix(_ section: String) -> String { "\(overridePrefix)\(section.uppercased())_" }

    /// Reads `sandbox:` into `sandbox`. First, because literal and `sandbox:` secrets depend on it.
    func readSandbox(_ node: Node?) {
        let keys = ["enabled", "host", "port", "keyDirectory", "fault", "latencyMs"]
        let section = mapping(node, path: "sandbox", keys: keys, overridePrefix: Self.overridePrefix("sandbox"))
        var settings = SandboxSettings()
        if let enabled = bool("enabled", in: section) { settings.enabled = enabled }
        if let host = name("host", in: section, what: "the address the embedded sandbox listens on, e.g. 127.0.0.1"), let field = field("host", in: section) {
            if SandboxSettings.isAllowedHost(host) {
                settings.host = host
            } else {
                report(field.path, "\(field.origin) \(SandboxSettings.hostRule), got \(Quote.value(host))")
            }
        }
        if let port = int("port", in: section, 0...65535, note: " (0 picks a free port)") { settings.port = port }
        if let directory = name("keyDirectory", in: section, what: "where sandbox:NAME keys are kept") { settings.keyDirectory = directory }
        settings.keyDirectory = absolutePath(settings.keyDirectory)
        if let fault = choice("fault", in: section, sandboxFaults) { settings.fault = fault == "none" ? nil : fault }
        if let latency = int("latencyMs", in: section, 0...60_000) { settings.latencyMs = latency }
        sandbox = settings
    }

    func readServer(_ node: Node?) -> ServerSettings {
        let keys = [
            "host", "port", "maxBodyBytes", "drainSeconds", "shutdownTimeoutSeconds", "eventLoops", "requestsOnEventLoop",
            "headerTimeoutMs", "bodyTimeoutMs", "idleTimeoutMs", "maxConnections", "maxHeaderBytes", "authFailuresPerMinute",
        ]
        let section = mapping(node, path: "server", keys: keys, overridePrefix: Self.overridePrefix("server"))
        var settings = ServerSettings()
        if let host = name("host", in: section, what: "the address to listen on, e.g. 127.0.0.1 or 0.0.0.0") { settings.host = host }
        if let port = int("port", in: section, 0...65535, note: " (0 picks a free port)") { settings.port = port }
        if let bytes = int("maxBodyBytes", in: section, 1024...1_048_576) { settings.maxBodyBytes = bytes }
        if let seconds = int("drainSeconds", in: section, 0...300) { settings.drainSeconds = seconds }
        if let seconds = int("shutdownTimeoutSeconds", in: section, 1...300, note: " (how long in-flight requests may take after the drain)") {
            settings.shutdownTimeoutSeconds = seconds
        }
        if let loops = int("eventLoops", in: section, 1...256, note: " (socket I/O threads; leave it out for one per core)") {
            settings.eventLoops = loops
        }
        let onLoopNote = " (requests in flight that still run on their event loop; 0 runs every request on Swift's pool)"
        if let requests = int("requestsOnEventLoop", in: section, 0...4096, note: onLoopNote) {
            settings.requestsOnEventLoop = requests
        }
        readFrontDoor(section, into: &settings)
        return settings
    }

    /// The listener's limits on its clients (docs/operations.md, "The front door").
    private func readFrontDoor(_ section: ConfigMapping, into settings: inout ServerSettings) {
        if let ms = int("headerTimeoutMs", in: section, 100...300_000, note: " (the longest a client may take to send a request's head)") {
            settings.headerTimeoutMs = ms
        }
        if let ms = int("bodyTimeoutMs", in: section, 100...300_000, note: " (the longest a client may take to send a request's body)") {
            settings.bodyTimeoutMs = ms
        }
        if let ms = int("idleTimeoutMs", in: section, 1_000...3_600_000, note: " (how long a keep-alive connection may sit idle)") {
            settings.idleTimeoutMs = ms
        }
        if let count = int("maxConnections", in: section, 1...1_000_000, note: " (open connections the API listener holds at most)") {
            settings.maxConnections = count
        }
        if let bytes = int("maxHeaderBytes", in: section, 1_024...65_536, note: " (request line and header fields together)") {
            settings.maxHeaderBytes = bytes
        }
        if let count = int("authFailuresPerMinute", in: section, 0...100_000, note: " (failed authentications per source address; 0 turns the limit off)") {
            settings.authFailuresPerMinute = count
        }
    }

    func readLog(_ node: Node?) -> LogSettings {
        let section = mapping(node, path: "log", keys: ["level", "format", "writeDelayMs"], overridePrefix: Self.overridePrefix("log"))
        var settings = LogSettings()
        if let level = choice("level", in: section, Logger.Level.allCases.map(\.rawValue)), let parsed = Logger.Level(rawValue: level) {
            settings.level = parsed
        }
        if let format = choice("format", in: section, LogSettings.Format.allCases.map(\.rawValue)), let parsed = LogSettings.Format(rawValue: format) {
            settings.format = parsed
        }
        let delayNote = " (the longest a line waits in memory to share a write to standard output under load; 0 writes each line as it is logged)"
        if let delay = int("writeDelayMs", in: section, 0...1_000, note: delayNote) { settings.writeDelayMs = delay }
        return settings
    }

    func readState(_ node: Node?) -> StateSettings {
        let keys = ["backend", "redisURL", "redisUsername", "redisPassword", "replayTTLSeconds", "replayKey", "claimLeaseMs", "inFlightWaitMs"]
        let section = mapping(node, path: "state", keys: keys, overridePrefix: Self.overridePrefix("state"))
        var settings = StateSettings()
        if let backend = choice("backend", in: section, StateSettings.Backend.allCases.map(\.rawValue)), let parsed = StateSettings.Backend(rawValue: backend) {
            settings.backend = parsed
        }
        let redisURL = string("redisURL", in: section)
        if let (url, _) = redisURL { settings.redisURL = url }
        if settings.backend == .redis, let reason = URLRules.redisProblem(settings.redisURL) {
            let origin = redisURL?.field.origin ?? "state.redisURL"
            report("state.redisURL", "\(origin) \(reason)")
        }
        if let ttl = int("replayTTLSeconds", in: section, 130...86_400, note: " (it must outlast the carrier's 2-minute token life)") {
            settings.replayTTLSeconds = ttl
        }
        if let field = field("replayKey", in: section) { settings.replayKey = replayKey(field) }
        let leaseNote = " (a claim's lease on a token's provider call, renewed every third of it while the call lasts)"
        if let lease = int("claimLeaseMs", in: section, 1_000...60_000, note: leaseNote) { settings.claimLeaseMs = lease }
        let waitNote = " (how long a request waits for another request's call on the same token before answering call_in_progress)"
        if let wait = int("inFlightWaitMs", in: section, 0...60_000, note: waitNote) { settings.inFlightWaitMs = wait }
        if let field = field("redisPassword", in: section), let secret = secret(field), case .text(let password) = secret.value {
            if password.isEmpty {
                report(secret.path, "\(secret.label) is empty; remove the key for a Redis without a password")
            } else {
                settings.redisPassword = password
            }
        }
        if let (username, field) = string("redisUsername", in: section), !username.isEmpty {
            if settings.redisPassword == nil {
                report(field.path, "\(field.origin) is set without state.redisPassword; a Redis ACL user needs its password")
            }
            settings.redisUsername = username
        }
        return settings
    }

    /// `admin:` - the loopback-only listener for `POST /admin/reload`; off without a key hash.
    func readAdmin(_ node: Node?) -> AdminSettings {
        let keys = ["host", "port", "apiKeySHA256", "consoleIdleMinutes", "consoleSessionMinutes", "consoleMaxSessions", "consoleSecureCookie"]
        let section = mapping(node, path: "admin", keys: keys, overridePrefix: Self.overridePrefix("admin"))
        var settings = AdminSettings()
        if let host = name("host", in: section, what: "the address the admin listener binds, normally 127.0.0.1") { settings.host = host }
        if let port = int("port", in: section, 0...65535, note: " (0 picks a free port)") { settings.port = port }
        if section["apiKeySHA256"] != nil { settings.apiKeySHA256 = readKeyHash(section) }
        if let minutes = int("consoleIdleMinutes", in: section, 1...1_440, note: " (a console session ends after this long without a request)") {
            settings.consoleIdleMinutes = minutes
        }
        let sessionNote = " (a console session ends this long after sign-in, however active)"
        if let minutes = int("consoleSessionMinutes", in: section, 5...10_080, note: sessionNote), let field = field("consoleSessionMinutes", in: section) {
            if minutes >= settings.consoleIdleMinutes {
                settings.consoleSessionMinutes = minutes
            } else {
                report(field.path, "\(field.origin) is \(minutes), shorter than admin.consoleIdleMinutes (\(settings.consoleIdleMinutes)): "
                    + "a session's whole life cannot be shorter than its idle limit")
            }
        }
        if let count = int("consoleMaxSessions", in: section, 1...1_000, note: " (console sessions held at once)") { settings.consoleMaxSessions = count }
        if let secure = bool("consoleSecureCookie", in: section) { settings.consoleSecureCookie = secure }
        return settings
    }

    /// `metrics:` - the Prometheus listener.
    func readMetrics(_ node: Node?) -> MetricsSettings {
        let section = mapping(node, path: "metrics", keys: ["enabled", "host", "port"], overridePrefix: Self.overridePrefix("metrics"))
        var settings = MetricsSettings()
        if let enabled = bool("enabled", in: section) { settings.enabled = enabled }
        if let host = name("host", in: section, what: "the address the metrics listener binds: 127.0.0.1, or 0.0.0.0 for a scraper on another host") {
            settings.host = host
        }
        if let port = int("port", in: section, 0...65535, note: " (0 picks a free port)") { settings.port = port }
        return settings
    }

    /// Cross-section checks once everything is read: no two listeners on one port.
    func checkListeners(_ configuration: PassgateConfiguration) {
        var taken: [(key: String, port: Int)] = [("server.port", configuration.server.port)]
        func claim(_ key: String, _ port: Int, _ what: String) {
            guard port != 0 else { return }
            if let owner = taken.first(where: { $0.port == port }) {
                report(key, "\(key) \(port) is already used by \(owner.key): give the \(what) its own port, or 0 for a free one")
            } else {
                taken.append((key, port))
            }
        }
        if sandbox.enabled { claim("sandbox.port", sandbox.port, "embedded sandbox (e.g. 8090)") }
        if configuration.admin.isEnabled { claim("admin.port", configuration.admin.port, "admin listener (e.g. 8081)") }
        if configuration.metrics.enabled { claim("metrics.port", configuration.metrics.port, "metrics listener (e.g. 8082)") }
    }
}
