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
    public func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SecretError) -> String {
        switch self {
        case .literal(let value):
            return value
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw SecretError("environment variable \(name) is not set or empty")
            }
            return value
        case .file(let path):
            return try Self.readText(path).trimmingCharacters(in: .newlines)
        case .sandbox(let name):
            throw SecretError("sandbox:\(name) is only available when the embedded sandbox is enabled")
        }
    }

    /// A whole UTF-8 text file (keys, secrets).
    public static func readText(_ path: String) throws(SecretError) -> String {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw SecretError("cannot read '\(path)' (missing file or no permission)")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SecretError("'\(path)' is not a UTF-8 text file (give PEM or base64, not binary DER)")
        }
        return text
    }
}

/// Why a secret could not be resolved; the message names the source, never the value.
public struct SecretError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
