import ArgumentParser
import PassgateCore
import Foundation
import OpenSSLCrypto
import PassgateConfig
import PassgateServer
import UnixSignals

/// `passgate serve`: run the REST service (with the embedded CMCC sandbox when the config enables it).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Passgate REST service.",
        discussion: """
            SIGTERM or SIGINT: /readyz turns 503, requests are served for server.drainSeconds, then new ones get \
            service_draining while in-flight ones finish (up to server.shutdownTimeoutSeconds); exit 0. SIGHUP re-reads the \
            configuration and secret files and applies apps and clients (an invalid file is rejected and logged; the running \
            configuration keeps serving). Configuration problems at start exit 78 before anything starts.
            """
    )

    @OptionGroup var config: ConfigOptions

    func run() async throws {
        let configuration = try config.load()
        let path = config.path
        // Log lines from a thread of their own (log.writeDelayMs), written out before the process exits.
        let output = StandardOutputSink(writeDelayMs: configuration.log.writeDelayMs) { dropped in
            StandardOutputSink.dropNote(dropped, json: configuration.log.format == .json)
        }
        let runtime = PassgateRuntime(
            configuration: configuration, logSink: output, reload: { try ConfigurationLoader.passgate().load(path: path) })
        do {
            try await EmbeddedSandbox.serve(runtime, signals: [.sigterm, .sigint]) { endpoints, sandboxPort in
                guard let sandboxPort else { return }
                FileHandle.standardError.write(Data(Walkthrough.text(
                    configuration: configuration, apiPort: endpoints.apiPort, sandboxPort: sandboxPort, adminPort: endpoints.adminPort,
                    metricsPort: endpoints.metricsPort).utf8))
            }
        } catch {
            await output.close()
            try await ListenerBindError.exitingOnFailure { throw error }
        }
        await output.close()
    }
}

/// The copy-paste tour printed when the embedded sandbox runs.
enum Walkthrough {
    /// The demo key of the shipped sandbox config (its SHA-256 is in `config/passgate.yaml`).
    static let demoKey = "pg_sandbox_demo_key"
    /// The shipped sandbox config's admin key.
    static let demoAdminKey = "pg_sandbox_admin_key"

    static func text(configuration: PassgateConfiguration, apiPort: Int, sandboxPort: Int, adminPort: Int? = nil, metricsPort: Int? = nil) -> String {
        let host = configuration.server.host
        let demoHash = (try? Digest.sha256(Array(demoKey.utf8))) ?? []
        let client = configuration.clients.first { $0.apiKeySHA256 == demoHash }
        let key = client == nil ? "<your API key>" : demoKey
        let app = configuration.apps.first { client?.apps.contains($0.appId) ?? true }?.appId ?? "<appId>"
        let api = "http://\(host):\(apiPort)", sandbox = "http://\(configuration.sandbox.host):\(sandboxPort)"
        return """

            Passgate is up on \(api), talking to the embedded CMCC sandbox on \(sandbox).
            Try it (the sandbox mints tokens the way the carrier SDK would):

              TOKEN=$(curl -s -X POST \(sandbox)/sandbox/tokens -H 'Content-Type: application/json' \\
                -d '{"appId":"\(app)","phoneNumber":"13800138000"}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')
              curl -s -X POST \(api)/v1/phone-number -H 'Authorization: Bearer \(key)' \\
                -H 'Content-Type: application/json' -d "{\\"appId\\":\\"\(app)\\",\\"token\\":\\"$TOKEN\\"}"

              # number verification needs a token minted for it:
              TOKEN=$(curl -s -X POST \(sandbox)/sandbox/tokens -H 'Content-Type: application/json' \\
                -d '{"appId":"\(app)","phoneNumber":"13800138000","product":"verify"}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')
              curl -s -X POST \(api)/v1/phone-number/verify -H 'Authorization: Bearer \(key)' \\
                -H 'Content-Type: application/json' -d "{\\"appId\\":\\"\(app)\\",\\"token\\":\\"$TOKEN\\",\\"phoneNumber\\":\\"13800138000\\"}"

            Health: curl \(api)/readyz   \(metricsPort.map { "Metrics: curl http://\(configuration.metrics.host):\($0)/metrics   " } ?? "")Stop: Ctrl-C (drains first)
            \(reloadHint(configuration: configuration, adminPort: adminPort))


            """
    }

    /// How to apply an edited config without a restart.
    static func reloadHint(configuration: PassgateConfiguration, adminPort: Int?) -> String {
        let pid = "kill -HUP \(ProcessInfo.processInfo.processIdentifier)"
        guard let adminPort else { return "Reload the config: \(pid)" }
        let demoHash = (try? Digest.sha256(Array(demoAdminKey.utf8))) ?? []
        let key = configuration.admin.apiKeySHA256 == demoHash ? demoAdminKey : "<admin key>"
        return "Reload the config: \(pid)   or   curl -X POST -H 'Authorization: Bearer \(key)' http://\(configuration.admin.host):\(adminPort)/admin/reload"
    }
}
