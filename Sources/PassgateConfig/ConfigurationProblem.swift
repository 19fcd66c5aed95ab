/// One thing wrong with a configuration: where it is and what to do about it.
public struct ConfigurationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The key path, e.g. `apps[1].secret` or `server.port`; empty for the file as a whole.
    public var path: String
    /// What is wrong and what to do. It names the key path (and the environment variable, for an
    /// override) and never contains a secret's value.
    public var message: String
    /// The 1-based line of the key in the YAML, or of its nearest enclosing key when the key itself
    /// is missing (as for an environment override of a key the file leaves out); `nil` when nothing on
    /// the path is in the file (a missing section, or the file as a whole).
    public var line: Int?

    public init(path: String, message: String, line: Int? = nil) {
        self.path = path
        self.message = message
        self.line = line
    }

    public var description: String { message }
}

/// Everything wrong with a configuration, found in one pass so `passgate check-config` can list it all.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// In file order; problems without a line come last, in section order.
    public var problems: [ConfigurationProblem]

    public init(problems: [ConfigurationProblem]) {
        self.problems = problems
    }

    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "\(count) in the configuration:\n" + problems.map { "  - \($0.line.map { "line \($0): " } ?? "")\($0.message)" }.joined(separator: "\n")
    }
}
