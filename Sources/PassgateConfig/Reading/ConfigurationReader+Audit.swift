import Foundation
import Yams

/// `audit:` - where the carrier-call audit log goes.
extension ConfigurationReader {
    static let auditKeys = ["enabled", "path", "maxFileBytes", "fsyncIntervalMs", "writeDelayMs", "maxFiles", "maxAgeDays"]

    func readAudit(_ node: Node?) -> AuditSettings {
        let section = mapping(node, path: "audit", keys: Self.auditKeys, overridePrefix: Self.overridePrefix("audit"))
        var settings = AuditSettings()
        if let enabled = bool("enabled", in: section) { settings.enabled = enabled }
        if let path = name("path", in: section, what: "the audit file, e.g. /var/lib/passgate/audit/audit.jsonl"),
           let origin = field("path", in: section)?.origin {
            if let problem = Self.auditPathProblem(path, absolute: absolutePath(path), files: files) {
                report("audit.path", "\(origin) \(Quote.value(path)) \(problem)")
            } else {
                settings.path = path
            }
        }
        settings.path = absolutePath(settings.path)
        let note = " (a file is rotated before it grows past this size; 67108864 is 64 MiB)"
        if let bytes = int("maxFileBytes", in: section, 4096...(1 << 40), note: note) { settings.maxFileBytes = bytes }
        if let interval = int("fsyncIntervalMs", in: section, 0...60_000, note: " (0 fsyncs after every line)") { settings.fsyncIntervalMs = interval }
        let delayNote = " (the longest a line waits in memory to share a write under load; 0 writes each line as it comes)"
        if let delay = int("writeDelayMs", in: section, 0...1_000, note: delayNote) { settings.writeDelayMs = delay }
        let filesNote = " (rotated files kept besides the current one, the oldest beyond are deleted; 0 keeps every one)"
        if let files = int("maxFiles", in: section, 0...100_000, note: filesNote) { settings.maxFiles = files }
        let ageNote = " (rotated files older than this many days are deleted; 0 is no age limit)"
        if let days = int("maxAgeDays", in: section, 0...36_500, note: ageNote) { settings.maxAgeDays = days }
        return settings
    }

    /// Why `path` cannot be the audit file, if it cannot.
    static func auditPathProblem(_ path: String, absolute: String, files: ConfigurationFiles) -> String? {
        if path.hasSuffix("/") { return "names a directory: give the file, e.g. \(path)audit.jsonl" }
        let name = absolute.split(separator: "/").last.map(String.init) ?? ""
        guard name.hasSuffix(".jsonl"), name.count > ".jsonl".count else {
            return "must name a .jsonl file (e.g. /var/lib/passgate/audit/audit.jsonl): rotated files are named after it and passgate usage reads *.jsonl"
        }
        if files.isDirectory(absolute) {
            return "is a directory: give a file inside it, e.g. \(path)/audit.jsonl"
        }
        return nil
    }
}

extension ConfigurationLoader {
    /// Reads only the `audit:` section of the file at `path` (with its `PASSGATE_AUDIT_*`
    /// overrides), for `passgate usage`: it must work on a host whose shell lacks the service's
    /// secrets, which a full `load(path:)` would insist on. Problems elsewhere in the file are
    /// not looked for.
    public func loadAuditSettings(path: String) throws(ConfigurationError) -> AuditSettings {
        let text: String
        do {
            text = try SecretReference.readText(path)
        } catch {
            throw ConfigurationError(problems: [ConfigurationProblem(path: "", message: "configuration file: \(error.description); check the --config path")])
        }
        let reader = ConfigurationReader(environment: environment, baseDirectory: FileManager.default.currentDirectoryPath, registry: registry)
        let root: Node?
        do {
            root = try ConfigurationReader.compose(text)
        } catch let error as YamlError {
            let (message, line) = ConfigurationReader.describe(error)
            throw ConfigurationError(problems: [ConfigurationProblem(path: "", message: message, line: line)])
        } catch {
            throw ConfigurationError(problems: [ConfigurationProblem(path: "", message: "the configuration is not valid YAML")])
        }
        reader.root = root
        var auditNode: Node?
        if case .mapping(let mapping)? = root {
            auditNode = mapping.first { $0.key.scalar?.string == "audit" }?.value
        }
        let settings = reader.readAudit(auditNode)
        guard reader.problems.isEmpty else { throw ConfigurationError(problems: reader.orderedProblems) }
        return settings
    }
}
