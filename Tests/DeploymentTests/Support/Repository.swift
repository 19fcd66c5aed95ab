import Foundation
import Testing
import Yams

/// The checkout these tests were compiled from, found from `#filePath`, and its `deploy/` files.
enum Repository {
    /// The directory holding `Package.swift` above this file.
    static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    }()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func text(_ relative: String) throws -> String {
        do {
            return try String(contentsOfFile: path(relative), encoding: .utf8)
        } catch {
            throw Failure("cannot read \(relative) in \(root.path): \(error)")
        }
    }

    /// The production configuration that the ConfigMap carries and the systemd unit uses.
    static let configurationFile = "deploy/kubernetes/passgate.yaml"

    /// `passgate.yaml` as plain YAML (not through the loader), for cross-checks with the manifests.
    static func configuration() throws -> YAMLMap {
        try YAMLMap(try Yams.load(yaml: text(configurationFile)), at: configurationFile)
    }
}

/// A test precondition that did not hold, with what to fix.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Typed access to a YAML mapping (Yams gives `[String: Any]`): each accessor throws a message
/// naming the key path, so a broken manifest reads as "deployment.yaml: spec.template… is missing".
struct YAMLMap {
    let values: [String: Any]
    let path: String

    init(_ value: Any?, at path: String) throws {
        guard let values = value as? [String: Any] else { throw Failure("\(path) is not a mapping") }
        self.values = values
        self.path = path
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    func map(_ key: String) throws -> YAMLMap { try YAMLMap(values[key], at: "\(path).\(key)") }

    func maps(_ key: String) throws -> [YAMLMap] {
        guard let list = values[key] as? [Any] else { throw Failure("\(path).\(key) is not a list") }
        return try list.enumerated().map { try YAMLMap($0.element, at: "\(path).\(key)[\($0.offset)]") }
    }

    func string(_ key: String) throws -> String {
        guard let value = values[key] as? String else { throw Failure("\(path).\(key) is not a string") }
        return value
    }

    func int(_ key: String) throws -> Int {
        guard let value = values[key] as? Int else { throw Failure("\(path).\(key) is not an integer") }
        return value
    }

    func bool(_ key: String) throws -> Bool {
        guard let value = values[key] as? Bool else { throw Failure("\(path).\(key) is not true/false") }
        return value
    }

    func strings(_ key: String) throws -> [String] {
        guard let value = values[key] as? [String] else { throw Failure("\(path).\(key) is not a list of strings") }
        return value
    }

    /// A mapping of strings (labels, selectors).
    func labels(_ key: String) throws -> [String: String] {
        guard let value = values[key] as? [String: String] else { throw Failure("\(path).\(key) is not a mapping of strings") }
        return value
    }
}
