/// The last hour of carrier calls per provider and app, in one-minute buckets, for the console's
/// overview: calls, successes, result codes and a latency histogram (for the percentiles). A
/// value type taking events with the time they happen; its owner keeps it under one lock.
///
/// Memory is bounded: 60 minutes × the (provider, app) pairs that called in them × their distinct
/// codes. A call costs a few integer additions in its minute's counts; only the first call of a
/// pair in a minute, or a code new to that minute, allocates.
public struct TrafficWindow: Sendable {
    /// Whose calls: a provider and one of its apps.
    public struct Key: Hashable, Sendable, Comparable {
        public var provider: String
        public var appId: String

        public init(provider: String, appId: String) {
            self.provider = provider
            self.appId = appId
        }

        public static func < (lhs: Key, rhs: Key) -> Bool { (lhs.provider, lhs.appId) < (rhs.provider, rhs.appId) }
    }

    /// A result: Passgate's normalized code (`ok` for success) and the provider's raw one.
    public struct Code: Hashable, Sendable {
        public var normalized: String
        public var raw: String?

        public init(normalized: String, raw: String?) {
            self.normalized = normalized
            self.raw = raw
        }
    }

    /// What a code means and what to do, as the error envelope said it (the same tables as
    /// docs/errors.md); kept once per code, not per call.
    public struct Explanation: Sendable, Equatable {
        public var message: String
        public var action: String

        public init(message: String, action: String) {
            self.message = message
            self.action = action
        }
    }

    /// One call.
    public struct Call: Sendable {
        public var key: Key
        public var code: Code
        public var latencyMs: Double
        /// Set for a failure: what the caller was told.
        public var explanation: Explanation?

        public init(key: Key, code: Code, latencyMs: Double, explanation: Explanation? = nil) {
            self.key = key
            self.code = code
            self.latencyMs = latencyMs
            self.explanation = explanation
        }

        var succeeded: Bool { code.normalized == "ok" }
    }

    /// Counts over some minutes, for one key or summed over several.
    public struct Counts: Sendable, Equatable {
        public internal(set) var calls = 0
        public internal(set) var successes = 0
        public internal(set) var codes: [Code: Int] = [:]
        public internal(set) var latency = LatencyHistogram()

        public init() {}

        /// Successes over calls, or nil without calls.
        public var successRatio: Double? { calls == 0 ? nil : Double(successes) / Double(calls) }

        mutating func add(_ call: Call) {
            calls += 1
            if call.succeeded { successes += 1 }
            codes[call.code, default: 0] += 1
            latency.record(call.latencyMs)
        }

        mutating func add(_ other: Counts) {
            calls += other.calls
            successes += other.successes
            codes.merge(other.codes, uniquingKeysWith: +)
            latency.add(other.latency)
        }
    }

    private struct Minute {
        var index: Int64
        var counts: [Key: Counts] = [:]
    }

    /// Minutes kept: the longest window the overview shows.
    public static let minutes = 60

    private var ring: [Minute?] = Array(repeating: nil, count: TrafficWindow.minutes)
    /// Per provider, the explanation of each failure code seen within the hour (a newer one replaces it).
    private var explanations: [String: [Code: Explanation]] = [:]

    public init() {}

    /// Counts `call`, made at `nowMs` (monotonic milliseconds).
    public mutating func record(_ call: Call, nowMs: Int64) {
        // Monotonic time may be negative (a clock made before the process's origin): keep the slot in range.
        let index = Self.minute(of: nowMs), slot = Int((index % Int64(Self.minutes) + Int64(Self.minutes)) % Int64(Self.minutes))
        if ring[slot]?.index != index {
            ring[slot] = Minute(index: index)
            // A new minute: forget explanations no minute still counts, so the table stays bounded.
            if slot == 0 { pruneExplanations() }
        }
        ring[slot]!.counts[call.key, default: Counts()].add(call)
        if let explanation = call.explanation, explanations[call.key.provider]?[call.code] != explanation {
            explanations[call.key.provider, default: [:]][call.code] = explanation
        }
    }

    /// Per key, the counts of the last `minutes` minutes up to `nowMs` (the current minute included).
    public func summary(lastMinutes minutes: Int, nowMs: Int64) -> [Key: Counts] {
        let current = Self.minute(of: nowMs), oldest = current - Int64(min(minutes, Self.minutes)) + 1
        var result: [Key: Counts] = [:]
        for minute in ring.compactMap({ $0 }) where minute.index >= oldest && minute.index <= current {
            for (key, counts) in minute.counts { result[key, default: Counts()].add(counts) }
        }
        return result
    }

    /// What `provider`'s `code` means and what to do, as last told to a caller.
    public func explanation(provider: String, code: Code) -> Explanation? {
        explanations[provider]?[code]
    }

    private mutating func pruneExplanations() {
        var seen: [String: Set<Code>] = [:]
        for minute in ring.compactMap({ $0 }) {
            for (key, counts) in minute.counts { seen[key.provider, default: []].formUnion(counts.codes.keys) }
        }
        var kept: [String: [Code: Explanation]] = [:]
        for (provider, codes) in explanations {
            let still = codes.filter { seen[provider]?.contains($0.key) == true }
            if !still.isEmpty { kept[provider] = still }
        }
        explanations = kept
    }

    private static func minute(of ms: Int64) -> Int64 {
        ms >= 0 ? ms / 60_000 : (ms - 59_999) / 60_000
    }
}
