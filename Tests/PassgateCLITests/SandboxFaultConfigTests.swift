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

@Suite("passgate sandbox listens on loopback only")
struct SandboxHostTests {
    @Test("--host 0.0.0.0 (or any non-loopback address) is refused with exit 64 and the rule; sandbox.host 0.0.0.0 is a config problem naming it (exit 78)")
    func nonLoopbackRefused() async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        let path = try ServeCommandTests.writeConfig(in: directory)
        for host in ["0.0.0.0", "::", "10.1.2.3"] {
            let refused = try await ProcessRunner.passgate(["sandbox", "--config", path, "--host", host, "--port", "0"])
            #expect(refused.status == 64, "\(host): \(refused.stderr)")
            #expect(refused.stderr.contains("--host must be a loopback address (127.0.0.0/8, ::1 or localhost)") && refused.stderr.contains("'\(host)'"), "\(refused.stderr)")
        }
        let fromConfig = try await ProcessRunner.passgate(["sandbox", "--config", path, "--port", "0"], environment: ["PASSGATE_SANDBOX_HOST": "0.0.0.0"])
        #expect(fromConfig.status == 78 && fromConfig.stderr.contains("sandbox.host"), "\(fromConfig.status): \(fromConfig.stderr)")
    }
}
