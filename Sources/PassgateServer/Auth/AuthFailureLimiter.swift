import NIOCore
import PassgateCore
import Synchronization

/// Failed authentications per source address, so a source that keeps sending wrong or missing
/// API keys gets 429 with the time to wait, and nothing else is done for those requests.
///
/// A token bucket per source: `perMinute` failures in a burst, refilled at `perMinute` a minute;
/// a failing request is refused while its source's bucket is empty. Only failures take from it,
/// and only failing requests are refused: a valid key is served whatever its source's count, so
/// the clients behind one load balancer never lock each other out.
///
/// The source is the TCP peer. Behind a load balancer that is the balancer's address, so the limit
/// then counts every client behind it together: set it with that in mind (docs/operations.md).
/// `X-Forwarded-For` is not read: any client can write it.
///
/// Memory is fixed: a table of ``sets`` × ``ways`` sources (4,096: well under 1 MB), each source in one
/// set chosen by a per-process seeded hash. A new source takes the place, in its set, of the one
/// that has the most failures left: a source being refused is the last to be forgotten.
final class AuthFailureLimiter: Sendable {
    /// A source address without its port (IPv4 or IPv6; no source for a Unix socket).
    struct Source: Hashable, Sendable {
        private let address: SocketAddress

        init?(_ address: SocketAddress?) {
            guard var address, address.port != nil else { return nil }
            address.port = 0
            self.address = address
        }
    }

    private struct Entry {
        var source: Source
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    static let sets = 1_024
    static let ways = 4

    /// Failures a source may have in a minute (and in a burst); 0: no limit.
    let perMinute: Int
    private let clock: any PassgateClock
    private let table: Mutex<[Entry?]>

    init(perMinute: Int, clock: any PassgateClock = SystemClock()) {
        self.perMinute = perMinute
        self.clock = clock
        table = Mutex(Array(repeating: nil, count: perMinute > 0 ? Self.sets * Self.ways : 0))
    }

    /// Throws `rate_limited` with the seconds until `source` may fail again, if its failures are used up.
    func admit(_ source: Source) throws(PassgateError) {
        guard perMinute > 0 else { return }
        let now = clock.monotonicNow()
        let rate = Double(perMinute) / 60
        let waitSeconds: Double? = table.withLock { table in
            guard let index = find(source, in: table) else { return nil }
            let tokens = refilled(table[index]!, now: now, rate: rate)
            return tokens >= 1 ? nil : (1 - tokens) / rate
        }
        guard let waitSeconds else { return }
        let retryAfter = max(1, Int(waitSeconds.rounded(.up)))
        var error = PassgateError(
            .rateLimited, .local("source over \(perMinute) failed authentications a minute"),
            message: "Too many requests with a missing or unknown API key from this address: retry after \(retryAfter)s (Retry-After) with a valid key.")
        error.retryAfterSeconds = retryAfter
        throw error
    }

    /// Takes one failure from `source`'s bucket.
    func recordFailure(_ source: Source) {
        guard perMinute > 0 else { return }
        let now = clock.monotonicNow()
        let rate = Double(perMinute) / 60
        table.withLock { table in
            if let index = find(source, in: table) {
                table[index]!.tokens = refilled(table[index]!, now: now, rate: rate) - 1
                table[index]!.updated = now
                return
            }
            // The free place of the set, else the one with the most failures left.
            let first = set(of: source) * Self.ways
            var chosen = first
            var most = -Double.infinity
            for index in first..<first + Self.ways {
                guard let entry = table[index] else {
                    chosen = index
                    break
                }
                let left = refilled(entry, now: now, rate: rate)
                if left > most {
                    most = left
                    chosen = index
                }
            }
            table[chosen] = Entry(source: source, tokens: Double(perMinute) - 1, updated: now)
        }
    }

    private func set(of source: Source) -> Int {
        // Hasher is seeded per process: which sources share a set cannot be chosen from outside.
        Int(UInt(bitPattern: source.hashValue) % UInt(Self.sets))
    }

    private func find(_ source: Source, in table: [Entry?]) -> Int? {
        let first = set(of: source) * Self.ways
        return (first..<first + Self.ways).first { table[$0]?.source == source }
    }

    private func refilled(_ entry: Entry, now: ContinuousClock.Instant, rate: Double) -> Double {
        let elapsed = now - entry.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return min(Double(perMinute), entry.tokens + max(0, seconds) * rate)
    }
}
