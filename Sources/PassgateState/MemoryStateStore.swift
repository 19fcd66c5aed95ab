import Synchronization

/// The single-instance state store: a dictionary with expiry. Entries expire lazily on access
/// and are swept as the map grows, so memory stays bounded by traffic within the TTL.
public final class MemoryStateStore: ExchangeStateStore {
    private struct Entry {
        var value: [UInt8]
        var expiresAtMs: Int64
    }

    private struct State {
        var values: [String: Entry] = [:]
        var claims: [String: Entry] = [:]
        var writesSinceSweep = 0
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
        state.withLock { state in
            state.values[key] = Entry(value: value, expiresAtMs: time + Int64(ttlMs))
            state.writesSinceSweep += 1
            if state.writesSinceSweep >= 1024 {
                state.values = state.values.filter { $0.value.expiresAtMs > time }
                state.claims = state.claims.filter { $0.value.expiresAtMs > time }
                state.writesSinceSweep = 0
            }
        }
    }

    public func claim(_ key: String, owner: String, ttlMs: Int) async throws(StateStoreError) -> Bool {
        let time = now()
        return state.withLock { state in
            if let held = state.claims[key], held.expiresAtMs > time { return false }
            state.claims[key] = Entry(value: Array(owner.utf8), expiresAtMs: time + Int64(ttlMs))
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
}
