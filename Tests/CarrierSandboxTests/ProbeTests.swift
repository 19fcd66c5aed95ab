import CarrierKit
import CarrierSandbox
import Foundation
import Testing

@Test func probeServeForManualChecks() async throws {
    let sandbox = CarrierSandbox(configuration: SandboxConfiguration(apps: Fixtures.apps, threads: 2), clock: SystemWallClock())
    let port = try await sandbox.start()
    try "\(port)".write(toFile: "/tmp/sandbox-port", atomically: true, encoding: .utf8)
    try await Task.sleep(for: .seconds(40))
    await sandbox.shutdown()
}
