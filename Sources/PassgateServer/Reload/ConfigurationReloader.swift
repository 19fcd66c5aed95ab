import PassgateCore
import Logging
import PassgateConfig

/// What a reload changed, for the admin API's answer and the log.
public struct ReloadReport: Sendable, Equatable {
    /// The generation now serving (unchanged when nothing was applied).
    public var generation: Int
    /// Sections whose new values now serve new requests: `apps`, `clients`, `server.maxBodyBytes`.
    public var applied: [String]
    /// Sections that changed in the file but only take effect after a restart.
    public var restartRequired: [String]
}

/// Re-reads the configuration file and its secret files, validates everything, then swaps the
/// request settings in one step. A configuration with any problem is rejected whole and the
/// running one keeps serving. An actor, so two reloads (SIGHUP and the admin API) never interleave.
actor ConfigurationReloader {
    /// Reads and validates the configuration source (the file given to `passgate serve`).
    typealias Load = @Sendable () throws -> PassgateConfiguration

    private let load: Load
    private let live: LiveSettings
    /// Applied to a freshly loaded configuration before comparing (e.g. pointing providers at the
    /// embedded sandbox, as at start-up).
    private let prepare: @Sendable (inout PassgateConfiguration) -> Void
    /// Told about every applied configuration (e.g. the embedded sandbox learns the new app secrets).
    private let didApply: @Sendable (PassgateConfiguration) -> Void
    private let logger: Logger
    private var running: PassgateConfiguration
    private var generation = 1

    init(
        running: PassgateConfiguration, live: LiveSettings, logger: Logger, load: @escaping Load,
        prepare: @escaping @Sendable (inout PassgateConfiguration) -> Void = { _ in },
        didApply: @escaping @Sendable (PassgateConfiguration) -> Void = { _ in }
    ) {
        self.running = running
        self.live = live
        self.logger = logger
        self.load = load
        self.prepare = prepare
        self.didApply = didApply
    }

    /// Reloads; throws `config_invalid` (listing every problem) when the new configuration is rejected.
    func reload(trigger: String) throws(PassgateError) -> ReloadReport {
        var next: PassgateConfiguration
        do {
            next = try load()
        } catch let error as ConfigurationError {
            let problems = error.problems.map { ($0.line.map { "line \($0): " } ?? "") + $0.message }
            logger.error("configuration reload rejected: the running configuration keeps serving", metadata: [
                "trigger": .string(trigger), "problems": .array(problems.map { .string($0) }),
            ])
            throw PassgateError(.configInvalid, .request(field: "configuration", problem: problems.joined(separator: "; ")),
                                message: "The new configuration was rejected (\(problems.count) problem\(problems.count == 1 ? "" : "s")): "
                                    + problems.joined(separator: "; ") + ". The running configuration keeps serving.")
        } catch {
            logger.error("configuration reload failed: the running configuration keeps serving", metadata: ["trigger": .string(trigger), "error": .string("\(error)")])
            throw PassgateError(.configInvalid, .request(field: "configuration", problem: "\(error)"),
                                message: "The configuration could not be read: \(error). The running configuration keeps serving.")
        }
        prepare(&next)
        let report = compare(running, next)
        guard !report.applied.isEmpty else {
            logger.notice("configuration reloaded: nothing to apply", metadata: [
                "trigger": .string(trigger), "generation": .stringConvertible(generation),
                "restartRequired": .string(report.restartRequired.joined(separator: ",")),
            ])
            return report
        }
        generation += 1
        live.replace(with: RequestSettings(configuration: next, generation: generation, previous: live.snapshot))
        // Only the applied parts become the new baseline: a section that needs a restart keeps
        // being reported until the process restarts.
        running.apps = next.apps
        running.clients = next.clients
        // The apps' secrets are now the new file's; the other sections' keep serving until a restart.
        running.secrets = running.secrets.filter { !$0.path.hasPrefix("apps[") } + next.secrets.filter { $0.path.hasPrefix("apps[") }
        running.server.maxBodyBytes = next.server.maxBodyBytes
        didApply(running)
        logger.notice("configuration reloaded", metadata: [
            "trigger": .string(trigger), "generation": .stringConvertible(generation),
            "applied": .string(report.applied.joined(separator: ",")), "restartRequired": .string(report.restartRequired.joined(separator: ",")),
        ])
        return ReloadReport(generation: generation, applied: report.applied, restartRequired: report.restartRequired)
    }

    /// The configuration in effect: what started, with every applied reload's sections (the
    /// console's configuration page), and the generation serving.
    var inEffect: (configuration: PassgateConfiguration, generation: Int) { (running, generation) }

    /// Sorts every changed section into applied or restart-only. Every stored section of
    /// `PassgateConfiguration` is named here: one that is neither would change in the file and be
    /// silently ignored (`ConfigurationReloadSectionTests` fails for a section left out).
    func compare(_ old: PassgateConfiguration, _ new: PassgateConfiguration) -> ReloadReport {
        var applied: [String] = [], restart: [String] = []
        if !Self.sameApps(old.apps, new.apps) { applied.append("apps") }
        if old.clients != new.clients { applied.append("clients") }
        if old.server.maxBodyBytes != new.server.maxBodyBytes { applied.append("server.maxBodyBytes") }
        var oldServer = old.server, newServer = new.server
        oldServer.maxBodyBytes = 0
        newServer.maxBodyBytes = 0
        if oldServer != newServer { restart.append("server") }
        if old.admin != new.admin { restart.append("admin") }
        if old.metrics != new.metrics { restart.append("metrics") }
        if old.log != new.log { restart.append("log") }
        if old.state != new.state { restart.append("state") }
        if old.providers != new.providers { restart.append("providers") }
        if old.sandbox != new.sandbox { restart.append("sandbox") }
        // The audit writer holds its file open on its own thread and sizes its rotation and
        // retention at start-up; moving it mid-run would split one day's records across two places.
        if old.audit != new.audit { restart.append("audit") }
        // The exporter and its queue are built at start-up, with the sampler the tracer holds.
        if old.tracing != new.tracing { restart.append("tracing") }
        return ReloadReport(generation: generation, applied: applied, restartRequired: restart)
    }

    /// Apps compare by their settings and key material (a rotated RSA key is a change).
    private static func sameApps(_ old: [AppSettings], _ new: [AppSettings]) -> Bool {
        old.count == new.count && zip(old, new).allSatisfy { $0.fingerprint == $1.fingerprint }
    }
}
