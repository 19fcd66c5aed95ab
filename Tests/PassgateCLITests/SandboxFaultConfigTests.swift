import CarrierSandbox
import Foundation
import PassgateCLI
import PassgateConfig
import PassgateServer
import Testing

@Suite("sandbox.fault as passgate reads it")
struct SandboxFaultConfigTests {
    @Test("every fault the sandbox has is a valid sandbox.fault and reaches the embedded sandbox; nothing else is")
    func faultsComeFromTheSandbox() async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        let path = try ServeCommandTests.writeConfig(in: directory)
        for fault in SandboxFault.allCases {
            let configuration = try ConfigurationLoader.passgate(environment: ["PASSGATE_SANDBOX_FAULT": fault.rawValue]).load(path: path)
            #expect(configuration.sandboxConfiguration.fault == fault)
        }
        do {
            _ = try ConfigurationLoader.passgate(environment: ["PASSGATE_SANDBOX_FAULT": "meteorStrike"]).load(path: path)
            Issue.record("an unknown fault was accepted")
        } catch {
            let message = try #require(error.problems.first { $0.path == "sandbox.fault" }?.message)
            for fault in SandboxFault.allCases { #expect(message.contains(fault.rawValue), "\(message)") }
        }
    }
}
