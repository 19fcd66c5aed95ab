import Yams

extension ConfigurationReader {
    static let sections = ["server", "admin", "metrics", "log", "state", "providers", "apps", "clients", "sandbox", "audit", "tracing"]

    /// Reads a whole document; `nil` when there were problems (all of them in `problems`).
    func read(yaml: String) -> PassgateConfiguration? {
        do {
            root = try Self.compose(yaml)
        } catch let error as YamlError {
            let (message, line) = Self.describe(error)
            report("", message, line: line)
            return nil
        } catch {
            report("", "the configuration is not valid YAML")
            return nil
        }
        let document = mapping(root, path: "", keys: Self.sections)

        readSandbox(document["sandbox"])  // first: literal and sandbox: secrets depend on it
        var configuration = PassgateConfiguration()
        configuration.registry = registry
        configuration.server = readServer(document["server"])
        configuration.admin = readAdmin(document["admin"])
        configuration.metrics = readMetrics(document["metrics"])
        configuration.log = readLog(document["log"])
        configuration.state = readState(document["state"])
        configuration.providers = readProviders(document["providers"])
        let (apps, appIds) = readApps(document["apps"], providers: configuration.providers)
        configuration.apps = apps
        configuration.clients = readClients(document["clients"], appIds: appIds)
        configuration.sandbox = sandbox
        configuration.audit = readAudit(document["audit"])
        configuration.tracing = readTracing(document["tracing"])
        checkListeners(configuration)
        configuration.secrets = secretSources
        return problems.isEmpty ? configuration : nil
    }

    /// The document's nodes, plain scalars left untyped: the reader converts every value itself,
    /// and Yams' default resolver would compile its tag patterns as Foundation regular
    /// expressions, which loads ICU's code at start for nothing.
    static func compose(_ text: String) throws -> Node? {
        try Yams.compose(yaml: text, .basic)
    }

    /// Problems in file order (reading order on one line); those without a line last, in section order.
    var orderedProblems: [ConfigurationProblem] {
        func rank(_ problem: ConfigurationProblem) -> Int {
            let section = problem.path.prefix { $0 != "." && $0 != "[" }
            return Self.sections.firstIndex(of: String(section)) ?? -1
        }
        return problems.enumerated().sorted {
            ($0.element.line ?? .max, rank($0.element), $0.offset) < ($1.element.line ?? .max, rank($1.element), $1.offset)
        }.map(\.element)
    }

    /// A YAML syntax error as line, column and libyaml's problem, without the snippet that
    /// Yams would quote (the offending line may hold a secret).
    static func describe(_ error: YamlError) -> (message: String, line: Int?) {
        let prefix = "the configuration is not valid YAML"
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _), .composer(let context, let problem, let mark, _):
            let during = context.map { " (\($0.text) from line \($0.mark.line))" } ?? ""
            return ("\(prefix): \(problem)\(during) at line \(mark.line), column \(mark.column)", mark.line)
        case .reader(let problem, _, _, _):
            return ("\(prefix): \(problem) (the file must be UTF-8 text)", nil)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return ("\(prefix): key \(keys) appears twice in one mapping (near line \(context.mark.line)): keep one", context.mark.line)
        case .dataCouldNotBeDecoded:
            return ("\(prefix): the file must be UTF-8 text", nil)
        default:
            return ("\(prefix) (\(error))", nil)
        }
    }
}
