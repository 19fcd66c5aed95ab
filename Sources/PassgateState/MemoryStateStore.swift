import DedicatedThreads
import Synchronization

/// The single-instance state store: a dictionary with expiry. Entries expire lazily on access,
/// and every write also drops a few expired entries in the order they were written, so memory
/// stays bounded by the traffic within the TTL.
///
/// Why in write order rather than by sweeping the map: a replay cache holds every outcome of the
/// last `replayTTLSeconds` (300 by default), a few hundred thousand entries at 1,000 requests a
/// second. Filtering a map that size copies and rehashes all of it, tens of milliseconds under the
/// lock every request needs, and did so every 1,024 writes. Entries of one kind share one TTL, so
/// the oldest write is the first to expire: a write appends its key and expiry to a queue and
/// takes at most ``expiredPerWrite`` expired records off its front, a constant amount of work.
public final class MemoryStateStore: ExchangeStateStore {
    /// Expired records a write removes at most. More than one, so that a backlog (the entries of a
    /// busy period expiring while traffic is lower) shrinks faster than writes add to it; few, so
    /// that no single write holds the lock for long.
    static let expiredPerWrite = 16

    private struct Entry {
        var value: [UInt8]
        var expiresAtMs: Int64
    }

    /// A key as it was written, with the expiry it was written with.
    private struct Written {
        let key: String
        let expiresAtMs: Int64
    }

    private struct State {
        var values: [String: Entry] = [:]
        var claims: [String: Entry] = [:]
        /// `values`' and `claims`' writes, oldest first.
        var valueWrites = FIFO<Written>()
        var claimWrites = FIFO<Written>()
    }

    private let now: @Sendable () -> Int64
    // `Mutex`: every operation is a short, non-suspending critical section.
    private let state = Mutex(State())

    /// - Parameter nowMilliseconds: the clock entries expire by (injectable for tests).
    public init(nowMilliseconds: @escaping @Sendable () -> Int64 = MemoryStateStore.monotonicMilliseconds) {
        now = nowMilliseconds
    }

    /// Milliseconds on the monotonic clock since the first call: only differences mean anything.
    @Sendable public static func monotonicMilliseconds() -> Int64 {
        let components = (ContinuousClock.now - origin).components
        return components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    private static let origin = ContinuousClock.now

    public func get(_ key: String) async throws(StateStoreError) -> [UInt8]? {
        let time = now()
        return state.withLock { state in
            guard let entry = state.values[key] else { return nil }
            guard entry.expiresAtMs > time else {
                state.values[key] = nil
                return nil
            }
            return entry.value
        }
    }

    public func set(_ key: String, value: [UInt8], ttlMs: Int) async throws(StateStoreError) {
        let time = now()
        let expiresAtMs = time + Int64(ttlMs)
        state.withLock { state in
            state.values[key] = Entry(value: value, expiresAtMs: expiresAtMs)
            state.valueWrites.append(Written(key: key, expiresAtMs: expiresAtMs))
            Self.dropExpired(from: &state.values, writes: &state.valueWrites, now: time)
        }
    }

    public func claim(_ key: String, owner: String, ttlMs: Int) async throws(StateStoreError) -> Bool {
        let time = now()
        let expiresAtMs = time + Int64(ttlMs)
        return state.withLock { state in
            if let held = state.claims[key], held.expiresAtMs > time { return false }
            state.claims[key] = Entry(value: Array(owner.utf8), expiresAtMs: expiresAtMs)
            state.claimWrites.append(Written(key: key, expiresAtMs: expiresAtMs))
            Self.dropExpired(from: &state.claims, writes: &state.claimWrites, now: time)
            return true
        }
    }

    public func release(_ key: String, owner: String) async throws(StateStoreError) {
        state.withLock { state in
            if state.claims[key]?.value == Array(owner.utf8) { state.claims[key] = nil }
        }
    }

    public func ping() async throws(StateStoreError) {}

    /// One process: the in-process single flight is all the claiming there is to do.
    public var isShared: Bool { false }

    /// Live entries (tests and metrics).
    public var count: Int {
        let time = now()
        return state.withLock { $0.values.values.filter { $0.expiresAtMs > time }.count }
    }

    /// Entries held in memory, expired or not, and the write records behind them (tests).
    var stored: (values: Int, claims: Int, writeRecords: Int) {
        state.withLock { ($0.values.count, $0.claims.count, $0.valueWrites.count + $0.claimWrites.count) }
    }

    /// Takes up to ``expiredPerWrite`` expired records off the front of `writes` and drops their
    /// keys from `map`, unless a later write renewed the key (that write queued its own record).
    private static func dropExpired(from map: inout [String: Entry], writes: inout FIFO<Written>, now: Int64) {
        var dropped = 0
        while dropped < expiredPerWrite, let oldest = writes.first, oldest.expiresAtMs <= now {
            _ = writes.popFirst()
            dropped += 1
            if let entry = map[oldest.key], entry.expiresAtMs <= now { map[oldest.key] = nil }
        }
    }
}
