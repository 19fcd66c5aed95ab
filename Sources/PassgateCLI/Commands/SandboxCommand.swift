import ArgumentParser
import PassgateCore
import CarrierSandbox
import Foundation
import Logging
import PassgateConfig
import PassgateServer
import ServiceLifecycle
import UnixSignals

/// `passgate sandbox`: the providers' emulators on their own, for integrating other clients against them.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run the providers' sandbox standalone, emulating the apps of a Passgate config.",
        discussion: "Faults: \(SandboxFault.allCases.map(\.rawValue).joined(separator: ", "))."
    )

    @OptionGroup var config: ConfigOptions

    @Option(help: "Loopback address to listen on: 127.0.0.0/8, ::1 or localhost (default: sandbox.host from the config).")
    var host: String?

    @Option(help: "Port (default: sandbox.port from the config).")
    var port: Int?

    @Option(help: "Inject a fault into every carrier reply.")
    var fault: String?

    @Option(name: .customLong("latency-ms"), help: "Delay every carrier reply.")
    var latencyMs: Int?

    @Flag(name: .customLong("bench"), help: "Bench mode: batch token minting, no per-number limit (signatures still verified).")
    var bench = false

    func validate() throws {
        if let host, !SandboxSettings.isAllowedHost(host) {
            throw ValidationError("--host \(SandboxSettings.hostRule), got '\(host)'")
        }
    }

    func run() async throws {
        var configuration = try config.load()
        if let host { configuration.sandbox.host = host }
        if let port { configuration.sandbox.port = port }
        if let latencyMs { configuration.sandbox.latencyMs = latencyMs }
        if let fault {
            guard SandboxFault(rawValue: fault) != nil else {
                throw ValidationError("--fault must be one of \(SandboxFault.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            configuration.sandbox.fault = fault
        }
        var settings = configuration.sandboxConfiguration
        settings.benchMode = bench
        let logger = PassgateRuntime(configuration: configuration).makeLogger(label: "passgate.sandbox")
        let sandbox = CarrierSandbox(configuration: settings, registry: configuration.registry, logger: logger)
        let bound = try await ListenerBindError.exitingOnFailure { try await sandbox.startNamingItsAddress() }
        FileHandle.standardError.write(Data("Sandbox on http://\(settings.host):\(bound) emulating \(settings.apps.map(\.appId).joined(separator: ", "))\n".utf8))
        let group = ServiceGroup(configuration: .init(services: [sandbox], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
