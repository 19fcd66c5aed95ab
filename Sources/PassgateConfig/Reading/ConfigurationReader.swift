import Foundation
import OpenSSLCrypto
import PassgateCore
import Yams

/// One pass over a parsed configuration. Every `read…` method reports what it finds wrong and
/// carries on with the default, so a single pass collects every problem.
final class ConfigurationReader {
    let environment: [String: String]
    /// Relative `file:` paths, `caFile` and `sandbox.keyDirectory` resolve against this.
    let baseDirectory: String
    private(set) var problems: [ConfigurationProblem] = []

    /// Set by `readSandbox` before anything that resolves secrets.
    var sandbox = SandboxSettings()
    /// `sandbox:NAME` keys already loaded in this pass (several apps may share one).
    var sandboxKeys: [String: Result<RSAPrivateKey, SandboxKeyError>] = [:]
    /// Where each resolved secret came from, in reading order (`PassgateConfiguration.secrets`).
    var secretSources: [SecretSource] = []

    /// The providers this load knows; each reads its own apps.
    let registry: ProviderRegistry
    /// The values `sandbox.fault` accepts (see `ConfigurationLoader.sandboxFaults`).
    let sandboxFaults: [String]
    /// Where `file:` secrets, `caFile` and sandbox keys come from (see `ConfigurationLoader.files`).
    let files: ConfigurationFiles

    init(
        environment: [String: String], baseDirectory: String, registry: ProviderRegistry, sandboxFaults: [String] = ["none"],
        files: ConfigurationFiles = .system
    ) {
        self.environment = environment
        self.baseDirectory = baseDirectory
        self.registry = registry
        self.sandboxFaults = sandboxFaults
        self.files = files
    }

    /// The parsed document, for the line numbers of problems.
    var root: Node?

    /// Records a problem at `path`; its line is looked up in the document unless given.
    func report(_ path: String, _ message: String, line: Int? = nil) {
        problems.append(ConfigurationProblem(path: path, message: message, line: line ?? self.line(at: path)))
    }

    /// Whether a problem was reported at `path` or under it (`apps[1]` covers `apps[1].secret`).
    func hasProblems(under path: String) -> Bool {
        problems.contains { $0.path == path || $0.path.hasPrefix(path + ".") || $0.path.hasPrefix(path + "[") }
    }

    /// The line of the key or list element at `path` (`apps[1].secret`), or of its nearest
    /// ancestor present in the file; `nil` when not even the top-level key is there.
    func line(at path: String) -> Int? {
        var node = root
        var line: Int?
        var rest = Substring(path)
        while !rest.isEmpty, let current = node {
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                      case .sequence(let sequence) = current, sequence.indices.contains(index)
                else { break }
                node = sequence[index]
                line = node?.mark?.line ?? line
                rest = rest[rest.index(after: close)...]
            } else {
                if rest.hasPrefix(".") { rest = rest.dropFirst() }
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                let key = rest[..<end]
                guard case .mapping(let mapping) = current, let pair = mapping.first(where: { $0.key.scalar?.string == String(key) }) else { break }
                node = pair.value
                line = pair.key.mark?.line ?? line
                rest = rest[end...]
            }
        }
        return line
    }

    /// `path` made absolute against `baseDirectory` (lexically: `..` is resolved, symlinks are not).
    func absolutePath(_ path: String) -> String {
        let base = URL(fileURLWithPath: baseDirectory, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
    }

    // MARK: Mappings

    /// `node` as a mapping whose keys must be among `keys`; reports a wrong type or unknown keys.
    /// Absent, null or wrongly typed sections read as empty, so defaults and overrides still apply.
    func mapping(_ node: Node?, path: String, keys: [String], overridePrefix: String? = nil) -> ConfigMapping {
        guard let entries = entries(of: node, path: path, expected: "a mapping of keys (\(keys.prefix(3).joined(separator: ", ")), …)") else {
            return ConfigMapping(path: path, entries: [], overridePrefix: overridePrefix)
        }
        for entry in entries where !keys.contains(entry.key) {
            let place = path.isEmpty ? "at top level" : "in \(path)"
            let suggestion = Suggestion.didYouMean(entry.key, among: keys)
            let advice = suggestion.isEmpty ? "; known keys: \(keys.joined(separator: ", "))" : suggestion
            report(ConfigMapping.join(path, entry.key), "unknown key '\(entry.key)' \(place)\(advice)")
        }
        return ConfigMapping(path: path, entries: entries, overridePrefix: overridePrefix)
    }

    /// The entries of a mapping node in file order; `[]` when absent or null, `nil` (reported) when not a mapping.
    func entries(of node: Node?, path: String, expected: String) -> [(key: String, value: Node)]? {
        guard let node, !node.isNull else { return [] }
        guard case .mapping(let mapping) = node else {
            report(path, "\(path.isEmpty ? "the configuration" : path) must be \(expected), got \(node.kindDescription)")
            return nil
        }
        var entries: [(key: String, value: Node)] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                report(path, "\(path.isEmpty ? "the top level" : path) has a key that is \(key.kindDescription); keys must be plain names")
                continue
            }
            entries.append((scalar.string, value))
        }
        return entries
    }

    /// The elements of a list node with their paths; `[]` when absent or null, `nil` (reported) when not a list.
    func list(_ node: Node?, path: String, expected: String) -> [(path: String, node: Node)]? {
        guard let node, !node.isNull else { return [] }
        guard case .sequence(let sequence) = node else {
            report(path, "\(path) must be \(expected), got \(node.kindDescription)")
            return nil
        }
        return sequence.enumerated().map { ("\(path)[\($0.offset)]", $0.element) }
    }

    // MARK: Scalars

    /// The value at `key`: the environment override when the section has one and it is set (non-empty),
    /// else the YAML node; `nil` when neither (or the YAML value is null).
    func field(_ key: String, in mapping: ConfigMapping) -> Field? {
        let path = mapping.path(of: key)
        if let prefix = mapping.overridePrefix {
            let variable = prefix + key.uppercased()
            if let value = environment[variable], !value.isEmpty {
                return Field(path: path, origin: "\(path) (from \(variable))", content: .scalar(value), fromEnvironment: true)
            }
        }
        guard let node = mapping[key], !node.isNull else { return nil }
        return Field(path: path, origin: path, content: Field.Content(node), fromEnvironment: false)
    }

    /// A string at `key`; `nil` when absent or (reported) not a scalar.
    func string(_ key: String, in mapping: ConfigMapping, expected: String = "a string") -> (value: String, field: Field)? {
        guard let field = field(key, in: mapping) else { return nil }
        guard case .scalar(let text) = field.content else {
            report(field.path, "\(field.origin) must be \(expected), got \(field.content.kindDescription)")
            return nil
        }
        return (text, field)
    }

    /// A non-empty string without surrounding whitespace; `nil` when absent or reported.
    func name(_ key: String, in mapping: ConfigMapping, what: String) -> String? {
        guard let (text, field) = string(key, in: mapping) else { return nil }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            report(field.path, "\(field.origin) must not be empty: \(what)")
            return nil
        }
        guard text == text.trimmingCharacters(in: .whitespacesAndNewlines) else {
            report(field.path, "\(field.origin) \(Quote.value(text)) has leading or trailing whitespace: remove it")
            return nil
        }
        return text
    }

    /// A decimal integer in `range`; `nil` when absent or reported. `note` explains the range.
    func int(_ key: String, in mapping: ConfigMapping, _ range: ClosedRange<Int>, note: String = "") -> Int? {
        guard let field = field(key, in: mapping) else { return nil }
        let expectation = "\(field.origin) must be an integer \(range.lowerBound)-\(range.upperBound)\(note)"
        guard case .scalar(let text) = field.content else {
            report(field.path, "\(expectation), got \(field.content.kindDescription)")
            return nil
        }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            report(field.path, "\(expectation), got \(Quote.value(text))")
            return nil
        }
        return value
    }

    /// `true`/`false` (also yes/no, on/off, 1/0, any case); `nil` when absent or reported.
    func bool(_ key: String, in mapping: ConfigMapping) -> Bool? {
        guard let field = field(key, in: mapping) else { return nil }
        guard case .scalar(let text) = field.content else {
            report(field.path, "\(field.origin) must be true or false, got \(field.content.kindDescription)")
            return nil
        }
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default:
            report(field.path, "\(field.origin) must be true or false, got \(Quote.value(text))")
            return nil
        }
    }

    /// One of `options` (matched case-insensitively, returned as spelled in `options`); `nil` when absent or reported.
    func choice(_ key: String, in mapping: ConfigMapping, _ options: [String]) -> String? {
        guard let field = field(key, in: mapping) else { return nil }
        let expectation = "\(field.origin) must be one of \(options.joined(separator: ", "))"
        guard case .scalar(let text) = field.content else {
            report(field.path, "\(expectation), got \(field.content.kindDescription)")
            return nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let match = options.first(where: { $0.lowercased() == trimmed.lowercased() }) else {
            report(field.path, "\(expectation), got \(Quote.value(text))\(Suggestion.didYouMean(trimmed, among: options))")
            return nil
        }
        return match
    }
}

/// A YAML mapping being read: its key path, its entries in file order and, for sections that
/// take environment overrides, the variables' prefix (`PASSGATE_SERVER_`).
struct ConfigMapping {
    let path: String
    let entries: [(key: String, value: Node)]
    let overridePrefix: String?

    subscript(key: String) -> Node? { entries.first { $0.key == key }?.value }

    func path(of key: String) -> String { Self.join(path, key) }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}

/// A value found at a key, and how messages name it.
struct Field {
    enum Content {
        case scalar(String)
        case list([Node])
        case mapping

        init(_ node: Node) {
            switch node {
            case .scalar(let scalar): self = .scalar(scalar.string)
            case .sequence(let sequence): self = .list(Array(sequence))
            case .mapping, .alias: self = .mapping
            }
        }

        var kindDescription: String {
            switch self {
            case .scalar(let text): Quote.value(text)
            case .list: "a list"
            case .mapping: "a mapping"
            }
        }
    }

    /// The key path, e.g. `server.port`.
    let path: String
    /// The key path, plus the environment variable when the value came from an override.
    let origin: String
    let content: Content
    /// Whether an environment override supplied the value (a literal secret there is as safe as `env:NAME`).
    let fromEnvironment: Bool
}

extension Node {
    /// A plain `~`, `null` or empty value: treated as if the key were absent.
    var isNull: Bool {
        guard case .scalar(let scalar) = self, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// For "got …" in messages (only ever for non-secret keys).
    var kindDescription: String {
        switch self {
        case .scalar(let scalar): Quote.value(scalar.string)
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .alias: "an alias"
        }
    }
}

/// Values quoted in messages, cut short so one bad line cannot flood `check-config`.
/// Never used for secret-valued keys.
enum Quote {
    static func value(_ text: String) -> String {
        text.count <= 60 ? "'\(text)'" : "'\(text.prefix(57))…'"
    }
}
