import PassgateConsole
import PassgateCore
import Synchronization

/// Runs the overview's `TrafficWindow`: the gateway tells it every carrier call once the answer
/// is on the wire (`ProviderGateway.record`), the console reads summaries. One lock, held for a
/// few additions per call.
final class ConsoleTraffic: Sendable {
    private let window = Mutex(TrafficWindow())
    private let clock: any PassgateClock

    init(clock: any PassgateClock) {
        self.clock = clock
    }

    /// One carrier call of `appId`; `failure` is what the caller was told when it failed.
    func record(_ call: CarrierCall, appId: String, failure: PassgateError?) {
        let entry = TrafficWindow.Call(
            key: .init(provider: call.provider, appId: appId), code: .init(normalized: call.normalizedCode, raw: call.rawCode),
            latencyMs: call.latencyMs, explanation: failure.map { .init(message: $0.message, action: $0.action.rawValue) })
        let now = clock.monotonicMilliseconds()
        window.withLock { $0.record(entry, nowMs: now) }
    }

    /// The last 5 and 60 minutes, and the explanations of the codes in them.
    func snapshot() -> (lastFive: [TrafficWindow.Key: TrafficWindow.Counts], lastHour: [TrafficWindow.Key: TrafficWindow.Counts], window: TrafficWindow) {
        let now = clock.monotonicMilliseconds()
        return window.withLock { window in
            (window.summary(lastMinutes: 5, nowMs: now), window.summary(lastMinutes: TrafficWindow.minutes, nowMs: now), window)
        }
    }
}
