import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import PassgateServer
import CarrierSandbox
import CurlTransport
import Logging
import PassgateCLI
import PassgateProviders
import Testing

/// Runs `body` against an instance of `configuration` started for it and stopped after it,
/// however it ends; `post` calls with the test client's key (`TestConfiguration.apiKey`).
func withRunningPassgate<T>(
    _ configuration: PassgateConfiguration = TestConfiguration.make(), clock: any PassgateClock = SystemClock(),
    logs: MemoryLogSink = MemoryLogSink(), reload: (@Sendable () throws -> PassgateConfiguration)? = nil,
    _ body: (RunningPassgate) async throws -> T
) async throws -> T {
    try await RunningPassgate.with(configuration, apiKey: TestConfiguration.apiKey, clock: clock, logs: logs, reload: reload, body)
}

extension RunningPassgate {
    /// `GET /admin/readyz` with the key `TestConfiguration.withAdmin` configures: every check.
    func readinessDetails() async throws -> (status: Int, checks: [String: String]) {
        let port = try #require(endpoints.adminPort, "the admin listener is off: configure it with TestConfiguration.withAdmin")
        let response = try await http.send(.init(
            url: "http://127.0.0.1:\(port)/admin/readyz", headers: [("Authorization", "Bearer \(TestConfiguration.adminKey)")], timeoutMs: 10_000))
        let answer = APIAnswer(status: response.status, body: response.body, headers: response.headers)
        return (answer.status, answer.json["checks"] as? [String: String] ?? [:])
    }
}

/// A standalone sandbox on loopback for `TestConfiguration`'s apps, changed by `change` (its
/// latency, or a carrier console that disagrees with Passgate); returns it and its port.
func startSandbox(_ change: (inout SandboxConfiguration) -> Void, clock: any PassgateClock = SystemClock()) async throws -> (CarrierSandbox, Int) {
    var settings = TestConfiguration.make().sandboxConfiguration
    settings.port = 0
    change(&settings)
    let sandbox = CarrierSandbox(configuration: settings, registry: .builtIn, clock: clock, logger: Logger(label: "test.sandbox"))
    return (sandbox, try await sandbox.start())
}
