import Foundation
import PassgateConfig
import PassgateTestSupport
import Testing

/// `deploy/kubernetes/passgate.yaml` is a configuration the real loader accepts.
@Suite("Shipped production configuration")
struct ShippedConfigurationTests {
    @Test("the real ConfigurationLoader accepts it, with the secrets mounted where it expects them")
    func loads() throws {
        let shipped = try ShippedConfiguration.materialize()
        defer { shipped.remove() }
        let configuration: PassgateConfiguration
        do {
            configuration = try ConfigurationLoader.testing(environment: [:]).load(yaml: shipped.yaml, baseDirectory: shipped.directory)
        } catch {
            let problems = error.problems.map { "  \($0.line.map { "line \($0): " } ?? "")\($0.message)" }
            Issue.record("\(Repository.configurationFile) is rejected:\n\(problems.joined(separator: "\n"))")
            return
        }
        let raw = try Repository.configuration()
        #expect(configuration.server.host == "0.0.0.0")
        let server = try raw.map("server")
        #expect(configuration.server.port == (try server.int("port")))
        #expect(configuration.server.drainSeconds == (try server.int("drainSeconds")))
        #expect(configuration.server.shutdownTimeoutSeconds == (try server.int("shutdownTimeoutSeconds")))
        let adminPort = try raw.map("admin").int("port")
        #expect(configuration.admin.host == "127.0.0.1" && configuration.admin.port == adminPort)
        let auditPath = try raw.map("audit").string("path")
            .replacingOccurrences(of: ShippedConfiguration.auditDirectory + "/", with: shipped.auditDirectory + "/")
        #expect(configuration.audit.enabled && configuration.audit.path == auditPath)
        #expect(configuration.state.backend == .redis && configuration.state.replayKey != nil && configuration.state.redisPassword != nil)
        #expect(!configuration.sandbox.enabled)
        #expect(!configuration.apps.isEmpty && !configuration.clients.isEmpty)
        #expect(configuration.providers["cmcc"]?.baseURLs.allSatisfy { $0.hasPrefix("https://") } == true)
    }

    @Test("every secret is a file under the secrets mount, never a literal or an environment variable")
    func secretsAreFiles() throws {
        let text = try Repository.text(Repository.configurationFile)
        let raw = try Repository.configuration()
        var references = [try raw.map("state").string("replayKey"), try raw.map("state").string("redisPassword")]
        for app in try raw.maps("apps") {
            for key in ["secret", "appKey", "privateKey"] where app.has(key) { references.append(try app.string(key)) }
        }
        for reference in references {
            let expected = "file:\(ShippedConfiguration.secretsDirectory)/"
            #expect(reference.hasPrefix(expected), "\(reference) should be \(expected)NAME")
        }
        #expect(ShippedConfiguration.secretNames(in: text).count == references.count)
    }
}
