import CarrierSandbox
import Foundation
import PassgateConfig
import PassgateCore
import PassgateProviders

extension ConfigurationLoader {
    /// The loader every `passgate` command uses: the built-in providers (the composition root's
    /// one list, passed on here), and `sandbox.fault`
    /// checked against the faults of the sandbox `serve` composes, so a misspelt fault is a
    /// configuration error with the valid names, not a silently fault-free sandbox.
    public static func passgate(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigurationLoader {
        ConfigurationLoader(environment: environment, registry: .builtIn, sandboxFaults: SandboxFault.allCases.map(\.rawValue))
    }
}
