import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import PassgateServer
import CurlTransport
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
