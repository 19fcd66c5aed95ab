import Foundation
import OpenSSLCrypto
import PassgateTestSupport

/// `deploy/kubernetes/passgate.yaml` made runnable here: the two mount points it names (the
/// secrets volume and the audit volume) moved into a temporary directory, the way the volumes
/// would be mounted, and each referenced secret file filled with a well-formed value of its kind.
/// Nothing else in the file is changed.
struct ShippedConfiguration {
    static let secretsDirectory = "/run/secrets/passgate"
    static let auditDirectory = "/var/lib/passgate/audit"

    let directory: String
    let yaml: String
    var configPath: String { "\(directory)/passgate.yaml" }
    var auditDirectory: String { "\(directory)/audit" }

    /// The basenames of every `file:/run/secrets/passgate/NAME` reference, in file order.
    static func secretNames(in text: String) -> [String] {
        let prefix = "file:\(secretsDirectory)/"
        return text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.compactMap { line in
            guard let start = line.range(of: prefix) else { return nil }
            return String(line[start.upperBound...].prefix { !$0.isWhitespace && $0 != "\"" && $0 != "'" })
        }
    }

    /// Writes the rewritten configuration and its secret files into a fresh temporary directory.
    static func materialize() throws -> ShippedConfiguration {
        let original = try Repository.text(Repository.configurationFile)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-deploy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(directory)/secrets", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(directory)/audit", withIntermediateDirectories: true)
        for name in secretNames(in: original) {
            try secretValue(named: name).write(toFile: "\(directory)/secrets/\(name)", atomically: true, encoding: .utf8)
        }
        let yaml = original
            .replacingOccurrences(of: "\(secretsDirectory)/", with: "\(directory)/secrets/")
            .replacingOccurrences(of: "\(auditDirectory)/", with: "\(directory)/audit/")
        let configuration = ShippedConfiguration(directory: directory, yaml: yaml)
        try yaml.write(toFile: configuration.configPath, atomically: true, encoding: .utf8)
        return configuration
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// A valid value for a secret, by the naming convention of deploy/kubernetes/secrets/README.md.
    static func secretValue(named name: String) throws -> String {
        if name.hasSuffix(".pem") { return TestRSAKeys.primaryPEM }
        if name == "replay-key" || name == "redis-password" { return Hex.lowercase(try SecureRandom.bytes(count: 32)) + "\n" }
        if name.hasSuffix("-secret") { return Hex.uppercase(try SecureRandom.bytes(count: 16)) + "\n" }  // a 32-character APPSecret
        if name.hasSuffix("-appkey") { return Hex.uppercase(try SecureRandom.bytes(count: 8)) + "\n" }  // a 16-character appKey
        throw Failure("""
            \(Repository.configurationFile) references secret '\(name)', a kind these tests cannot make up: \
            name it *.pem, replay-key, redis-password, *-secret or *-appkey
            """)
    }
}
