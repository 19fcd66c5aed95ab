import ArgumentParser

/// The `passgate` command line: the tools an integrator needs when the carrier says no.
@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
public struct PassgateCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "passgate",
        abstract: "Carrier one-click-login gateway: exchange SDK tokens for phone numbers.",
        discussion: """
            Exit codes: 0 success, 1 probe: the instance answered other than 2xx, 64 bad arguments, 65 malformed input (key, ciphertext), 78 invalid configuration, \
            66 unreadable file or unset variable, 69 serve/sandbox: a listener cannot take its address (port in use, permission, unknown host), \
            70 bench-plan: a provider's bench description is incomplete, 73 cannot write output.
            """,
        subcommands: [
            ServeCommand.self, SandboxCommand.self, CheckConfigCommand.self, ProbeCommand.self, SignCommand.self, KeysCommand.self,
            DecryptMSISDNCommand.self, UsageCommand.self, BenchPlanCommand.self,
        ]
    )

    public init() {}
}
