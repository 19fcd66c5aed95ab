import PassgateCore
import PassgateConfig
import Synchronization

/// Per-client token buckets: `ratePerSecond` tokens a second, bursts up to one second's worth.
/// Local to the instance (each instance behind the balancer enforces its own share).
final class ClientRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let rates: [String: Double]
    private let clock: any PassgateClock
    // `Mutex`: one short critical section per request; no await inside.
    private let buckets = Mutex<[String: Bucket]>([:])

    /// `previous`: the limiter this one replaces on a reload. Clients whose rate is unchanged keep
    /// their buckets, so a reload (a key rotation, say) never hands every client a fresh burst.
    init(clients: [ClientSettings], carryingOver previous: ClientRateLimiter? = nil, clock: any PassgateClock = SystemClock()) {
        self.clock = clock
        rates = Dictionary(clients.compactMap { client in client.ratePerSecond.map { (client.id, Double($0)) } }, uniquingKeysWith: { $1 })
        guard let previous else { return }
        let kept = previous.buckets.withLock { $0 }.filter { id, _ in previous.rates[id] != nil && previous.rates[id] == rates[id] }
        buckets.withLock { $0 = kept }
    }

    /// Takes one token for `client`, or throws `rate_limited` saying when to come back.
    func admit(_ client: ClientSettings) throws(PassgateError) {
        guard let rate = rates[client.id] else { return }
        let now = clock.monotonicNow()
        let waitSeconds: Double? = buckets.withLock { buckets in
            var bucket = buckets[client.id] ?? Bucket(tokens: rate, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(rate, bucket.tokens + seconds * rate)
            bucket.updated = now
            defer { buckets[client.id] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
        if let waitSeconds {
            let retryAfter = max(1, Int(waitSeconds.rounded(.up)))
            var error = PassgateError(
                .rateLimited, .local("client \(client.id) over \(Int(rate))/s"),
                message: "Client \(client.id) is limited to \(Int(rate)) requests per second: retry after \(retryAfter)s (Retry-After)."
            )
            error.retryAfterSeconds = retryAfter
            throw error
        }
    }
}
