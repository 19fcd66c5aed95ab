import PassgateCore
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
///
/// Claims follow the same rules as Redis's (``ExchangeStateStore``), on the injected clock, so
/// two exchanges sharing one memory store behave as two instances sharing Redis: that is how the
/// claim rules are tested without a server or a wall clock.
public final class MemoryStateStore: ExchangeStateStore {
    /// Expired records a write removes at most. More than one, so that a backlog (the entries of a
    /// busy period expiring while traffic is lower) shrinks faster than writes add to it; few, so
    /// that no single write holds the lock for long.
    static let expiredPerWrite = 16

    private struct Entry: Expiring {
        var value: [UInt8]
        var expiresAtMs: Int64
    }

    private struct Claim: Expiring {
        var owner: String
        var leaseUntilMs: Int64
        var expiresAtMs: Int64
    }

    /// A key as it was written, with the expiry it was written with.
    private struct Written {
        let key: String
        let expiresAtMs: Int64
    }

    private struct State {
        var values: [String: Entry] = [:]
        var claims: [String: Claim] = [:]
        /// `values`' and `claims`' writes, oldest first.
        var valueWrites = FIFO<Written>()
        var claimWrites = FIFO<Written>()
    }

    private let clock: any PassgateClock
    // `Mutex`: every operation is a short, non-suspending critical section.
    private let state = Mutex(State())

    /// - Parameter clock: entries and claims expire by its monotonic time.
    public init(clock: any PassgateClock = SystemClock()) {
        self.clock = clock
    }

    private func now() -> Int64 { clock.monotonicMilliseconds() }

    public func get(_ key: String) async throws(StateStoreError) -> [UInt8]? {
        let time = now()
        return state.withLock { state in Self.live(&state.values, key, at: time)?.value }
    }

    public func settle(_ key: String, value: [UInt8], ttlMs: Int, owner: String?) async throws(StateStoreError) -> [UInt8]? {
        let time = now()
        let expiresAtMs = time + Int64(ttlMs)
        return state.withLock { state in
            if let owner, state.claims[key]?.owner == owner { state.claims[key] = nil }
            if let existing = Self.live(&state.values, key, at: time) { return existing.value }
            state.values[key] = Entry(value: value, expiresAtMs: expiresAtMs)
            state.valueWrites.append(Written(key: key, expiresAtMs: expiresAtMs))
            Self.dropExpired(from: &state.values, writes: &state.valueWrites, now: time)
            return nil
        }
    }

    public func claim(_ key: String, owner: String, leaseMs: Int, ttlMs: Int) async throws(StateStoreError) -> ClaimAnswer {
        let time = now()
        return state.withLock { state in
            if let stored = Self.live(&state.values, key, at: time) { return .stored(stored.value) }
            if let held = Self.live(&state.claims, key, at: time), held.owner != owner {
                return held.leaseUntilMs > time ? .held : .abandoned
            }
            let expiresAtMs = time + Int64(ttlMs)
            state.claims[key] = Claim(owner: owner, leaseUntilMs: time + Int64(leaseMs), expiresAtMs: expiresAtMs)
            state.claimWrites.append(Written(key: key, expiresAtMs: expiresAtMs))
            Self.dropExpired(from: &state.claims, writes: &state.claimWrites, now: time)
            return .claimed
        }
    }

    public func renew(_ key: String, owner: String, leaseMs: Int) async throws(StateStoreError) -> Bool {
        let time = now()
        return state.withLock { state in
            guard Self.live(&state.claims, key, at: time)?.owner == owner else { return false }
            state.claims[key]?.leaseUntilMs = time + Int64(leaseMs)
            return true
        }
    }

    public func release(_ key: String, owner: String) async throws(StateStoreError) {
        state.withLock { state in
            if state.claims[key]?.owner == owner { state.claims[key] = nil }
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

    /// The entry under `key` unless it has expired (then it is dropped).
    private static func live<Entry: Expiring>(_ map: inout [String: Entry], _ key: String, at time: Int64) -> Entry? {
        guard let entry = map[key] else { return nil }
        guard entry.expiresAtMs > time else {
            map[key] = nil
            return nil
        }
        return entry
    }

    /// Takes up to ``expiredPerWrite`` expired records off the front of `writes` and drops their
    /// keys from `map`, unless a later write renewed the key (that write queued its own record).
    private static func dropExpired<Entry: Expiring>(from map: inout [String: Entry], writes: inout FIFO<Written>, now: Int64) {
        var dropped = 0
        while dropped < expiredPerWrite, let oldest = writes.first, oldest.expiresAtMs <= now {
            _ = writes.popFirst()
            dropped += 1
            if let entry = map[oldest.key], entry.expiresAtMs <= now { map[oldest.key] = nil }
        }
    }
}

/// An entry that expires at a point of the store's clock.
private protocol Expiring {
    var expiresAtMs: Int64 { get }
}
