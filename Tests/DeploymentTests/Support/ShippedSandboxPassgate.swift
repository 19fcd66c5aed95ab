import Foundation
import PassgateCLI
import PassgateConfig
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport

/// `config/passgate.yaml`, the configuration a fresh checkout serves (with the embedded sandbox),
/// run in this process by `PassgateRuntime` as `passgate serve` runs it: read by the real
/// `ConfigurationLoader`, changed only through the loader's own environment overrides (every
/// listener on port 0) and with its relative paths (sandbox keys, audit log) resolved in a
/// temporary directory instead of the checkout.
///
/// In-process rather than the binary (AsShippedServeTests runs that) so the listeners' real ports
/// come back from `onReady` instead of being guessed; started by the same scoped
/// `RunningPassgate.with` as every other live test.
enum ShippedSandboxPassgate {
    static let configurationFile = "config/passgate.yaml"
    /// The demo client's API key, documented in the configuration file.
    static let demoAPIKey = "pg_sandbox_demo_key"
    /// The configuration's MD5-mode app.
    static let md5App = "300011111111"

    /// Runs `body` against an instance of the shipped configuration (its sandbox on), then stops
    /// it and removes its directory. `environment` adds `PASSGATE_…` overrides (a `caFile`, say),
    /// as an operator would; `post` calls with the demo client's key.
    static func with<T>(environment: [String: String] = [:], _ body: (RunningPassgate) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-monitoring-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let overrides = ["PASSGATE_SERVER_PORT": "0", "PASSGATE_ADMIN_PORT": "0", "PASSGATE_METRICS_PORT": "0", "PASSGATE_SANDBOX_PORT": "0"].merging(environment) { $1 }
        let configuration: PassgateConfiguration
        do {
            let yaml = try Repository.text(configurationFile)
            // The shipped sandbox keys' directory (.passgate/sandbox), seeded: generation has its own tests.
            try TestRSAKeys.seedSandboxKeys(referencedIn: yaml, in: "\(directory)/.passgate/sandbox")
            configuration = try ConfigurationLoader.passgate(environment: overrides).load(yaml: yaml, baseDirectory: directory)
        } catch let error as ConfigurationError {
            throw Failure("\(configurationFile) does not load: \(error)")
        }
        return try await RunningPassgate.with(configuration, apiKey: demoAPIKey, body)
    }
}

/// `# TYPE name type` lines of the Prometheus text format.
func metricFamilies(inExposition text: String) -> [String: String] {
    var families: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("# TYPE ") {
        let words = line.split(separator: " ")
        if words.count == 4 { families[String(words[2])] = String(words[3]) }
    }
    return families
}
