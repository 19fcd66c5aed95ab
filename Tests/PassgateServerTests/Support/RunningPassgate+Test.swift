import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport

/// Runs `body` against an instance of `configuration` started for it and stopped after it,
/// however it ends; `post` calls with the test client's key (`TestConfiguration.apiKey`).
func withRunningPassgate<T>(
    _ configuration: PassgateConfiguration = TestConfiguration.make(), clock: any WallClock = SystemWallClock(),
    logs: MemoryLogSink = MemoryLogSink(), reload: (@Sendable () throws -> PassgateConfiguration)? = nil,
    _ body: (RunningPassgate) async throws -> T
) async throws -> T {
    try await RunningPassgate.with(configuration, apiKey: TestConfiguration.apiKey, clock: clock, logs: logs, reload: reload, body)
}
