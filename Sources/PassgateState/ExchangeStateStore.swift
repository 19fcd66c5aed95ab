import DedicatedThreads
import ServiceLifecycle

/// Where one-time-token exchanges keep what must outlive a request: the final outcome of each
/// exchange (the replay cache) and the "someone is calling the carrier for this token" marker.
///
/// Keys are already keyed hashes (no token in clear); values are opaque bytes. Implementations:
/// `MemoryStateStore` (one instance) and `RedisStateStore` (several instances, values encrypted).
///
/// A store is a `Service`, so a process runs it in its `ServiceGroup` (before the services that
/// use it: it stops after them) whatever the backend; a store that holds nothing to release gets
/// the default ``run()``, which only waits for the shutdown.
public protocol ExchangeStateStore: Service, Sendable {
    /// The value stored under `key`, or `nil`.
    func get(_ key: String) async throws(StateStoreError) -> [UInt8]?

    /// Stores `value` under `key` for `ttlMs` milliseconds, replacing any value.
    func set(_ key: String, value: [UInt8], ttlMs: Int) async throws(StateStoreError)

    /// Takes the in-flight marker for `key` if nobody holds it (Redis `SET key owner NX PX ttl`);
    /// `true` when `owner` now holds it.
    func claim(_ key: String, owner: String, ttlMs: Int) async throws(StateStoreError) -> Bool

    /// Drops the marker if `owner` still holds it (never someone else's).
    func release(_ key: String, owner: String) async throws(StateStoreError)

    /// A round trip, for `/readyz`.
    func ping() async throws(StateStoreError)

    /// Whether other instances see this store. When not, the in-process single flight already
    /// covers every duplicate, and the claim and release round trips are skipped.
    var isShared: Bool { get }
}

extension ExchangeStateStore {
    public var isShared: Bool { true }
}

extension ExchangeStateStore {
    /// Waits for the service group's graceful shutdown (or cancellation); nothing to release.
    public func run() async throws {
        _ = await ShutdownWait.untilShutdown()
    }
}

/// The state store cannot be used: Passgate refuses the request rather than risk spending a
/// token twice.
public struct StateStoreError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Cannot connect or the connection broke (Redis down, network).
        case unavailable
        /// A reply we did not expect, or a value that does not decrypt (wrong replayKey).
        case corrupt
        /// The operation took longer than allowed.
        case timeout
    }

    public var kind: Kind
    /// What happened, for logs and `/readyz` (never a key's or value's content).
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "state store \(kind.rawValue): \(message)" }
}
