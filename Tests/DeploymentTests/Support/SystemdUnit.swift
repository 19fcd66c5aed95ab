import Foundation

/// A systemd unit file as systemd reads it: `[Section]` headers, `Key=Value` lines, `#`/`;`
/// comments, `\` continuations, and keys that may repeat (`ExecReload=`, `SystemCallFilter=`).
struct SystemdUnit {
    static let path = "deploy/systemd/passgate.service"

    /// Section name to its settings in file order.
    let sections: [String: [(key: String, value: String)]]

    static func shipped() throws -> SystemdUnit { try SystemdUnit(parsing: Repository.text(path)) }

    init(parsing text: String) throws {
        var sections: [String: [(key: String, value: String)]] = [:]
        var current: String?
        var pending = ""
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty && (line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";")) { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            let logical = pending + line
            pending = ""
            if logical.hasPrefix("[") && logical.hasSuffix("]") {
                current = String(logical.dropFirst().dropLast())
                sections[current!, default: []] += []
                continue
            }
            guard let section = current else { throw Failure("\(Self.path):\(offset + 1): a setting before the first [Section]") }
            guard let equals = logical.firstIndex(of: "=") else { throw Failure("\(Self.path):\(offset + 1): '\(logical)' is not Key=Value") }
            let key = logical[..<equals].trimmingCharacters(in: .whitespaces)
            let value = logical[logical.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[section, default: []].append((key, value))
        }
        self.sections = sections
    }

    /// Every value of `key` in `section`, in order (an empty value counts: `CapabilityBoundingSet=`).
    func values(_ key: String, in section: String = "Service") -> [String] {
        (sections[section] ?? []).filter { $0.key == key }.map(\.value)
    }

    /// The effective single value (systemd keeps the last assignment).
    func value(_ key: String, in section: String = "Service") -> String? { values(key, in: section).last }
}
