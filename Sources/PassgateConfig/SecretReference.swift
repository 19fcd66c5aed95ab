import Foundation

/// How a secret is given in the config or on the command line: `env:NAME`, `file:PATH`,
/// `sandbox:NAME` (a key the embedded sandbox generates), or a literal (sandbox only in configs).
public enum SecretReference: Sendable, Equatable, CustomStringConvertible {
    case literal(String)
    case environment(String)
    case file(String)
    case sandbox(String)

    public init(parsing text: String) {
        if text.hasPrefix("env:") {
            self = .environment(String(text.dropFirst(4)))
        } else if text.hasPrefix("file:") {
            self = .file(String(text.dropFirst(5)))
        } else if text.hasPrefix("sandbox:") {
            self = .sandbox(String(text.dropFirst(8)))
        } else {
            self = .literal(text)
        }
    }

    /// Where the secret comes from, never its value: safe for messages and logs.
    public var description: String {
        switch self {
        case .literal: "a literal value"
        case .environment(let name): "env:\(name)"
        case .file(let path): "file:\(path)"
        case .sandbox(let name): "sandbox:\(name)"
        }
    }

    /// The secret's value. A file's trailing newlines are dropped (editors add one);
    /// `sandbox:` references are resolved by the loader, not here.
    public func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment, files: ConfigurationFiles = .system
    ) throws(SecretError) -> String {
        switch self {
        case .literal(let value):
            return value
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw SecretError("environment variable \(name) is not set or empty")
            }
            return value
        case .file(let path):
            return try files.readText(path).trimmingCharacters(in: .newlines)
        case .sandbox(let name):
            throw SecretError("sandbox:\(name) is only available when the embedded sandbox is enabled")
        }
    }

    /// A whole UTF-8 text file (keys, secrets), from the file system.
    public static func readText(_ path: String) throws(SecretError) -> String {
        try ConfigurationFiles.system.readText(path)
    }
}

/// Why a secret could not be resolved; the message names the source, never the value.
public struct SecretError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
