import CarrierSandbox
import Foundation
import PassgateConfig

extension ConfigurationLoader {
    /// The loader every `passgate` command uses: the built-in providers, and `sandbox.fault`
    /// checked against the faults of the sandbox `serve` composes, so a misspelt fault is a
    /// configuration error with the valid names, not a silently fault-free sandbox.
    public static func passgate(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigurationLoader {
        ConfigurationLoader(environment: environment, sandboxFaults: SandboxFault.allCases.map(\.rawValue))
    }
}
