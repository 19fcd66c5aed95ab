import DedicatedThreads
import ServiceLifecycle

/// Where one-time-token exchanges keep what must outlive a request: the final outcome of each
/// exchange (the replay cache) and the claim of the request that is calling the provider for a
/// token.
///
/// Keys are already keyed hashes (no token in clear); values are opaque bytes. Implementations:
/// `MemoryStateStore` (one instance) and `RedisStateStore` (several instances, values encrypted).
/// Both keep the same rules, which are what make a token reach the provider at most once:
///
/// - **The first outcome wins.** ``settle(_:value:ttlMs:owner:)`` stores an outcome only when none
///   is stored; a later one never replaces it.
/// - **A claim is fenced and leased.** It names its owner (one id per request) and is live until
///   its lease lapses; the owner renews the lease while its call waits and runs. A claim is kept
///   for the outcome's lifetime (`ttlMs`) after its lease lapses, so a request that finds it
///   learns that a call may have left without an outcome (``ClaimAnswer/abandoned``): nobody
///   else ever takes over another owner's claim, so nobody calls the provider a second time.
/// - **Claiming again is harmless.** A claim by the owner that already holds it renews it: a
///   command retried after a reconnect never mistakes its own claim for someone else's.
///
/// A store is a `Service`, so a process runs it in its `ServiceGroup` (before the services that
/// use it: it stops after them) whatever the backend; a store that holds nothing to release gets
/// the default ``run()``, which only waits for the shutdown.
public protocol ExchangeStateStore: Service, Sendable {
    /// The outcome stored under `key`, or `nil`.
    func get(_ key: String) async throws(StateStoreError) -> [UInt8]?

    /// Stores `value` under `key` for `ttlMs` milliseconds unless an outcome is stored there
    /// already, and drops `owner`'s claim on `key` (never someone else's) either way.
    /// - Returns: the outcome that was already stored (and stays), or `nil` when `value` was stored.
    func settle(_ key: String, value: [UInt8], ttlMs: Int, owner: String?) async throws(StateStoreError) -> [UInt8]?

    /// Claims `key` for `owner`, with a lease of `leaseMs`; the claim itself is kept `ttlMs`.
    func claim(_ key: String, owner: String, leaseMs: Int, ttlMs: Int) async throws(StateStoreError) -> ClaimAnswer

    /// Extends `owner`'s lease on `key` to `leaseMs` from now; `false` when `owner` no longer
    /// holds the claim (it was released, or it outlived `ttlMs`).
    func renew(_ key: String, owner: String, leaseMs: Int) async throws(StateStoreError) -> Bool

    /// Drops the claim if `owner` holds it (never someone else's), so the token may be tried
    /// again: only for a call that provably never left.
    func release(_ key: String, owner: String) async throws(StateStoreError)

    /// A round trip, for the state store monitor.
    func ping() async throws(StateStoreError)

    /// Whether other instances see this store. When not, the in-process single flight already
    /// covers every duplicate, and the claim, renewal and release round trips are skipped.
    var isShared: Bool { get }
}

/// What a claim found.
public enum ClaimAnswer: Sendable, Equatable {
    /// The caller holds the claim now (taken, or renewed because it already held it).
    case claimed
    /// An outcome is stored already: answer with it, call nothing.
    case stored([UInt8])
    /// Another request holds a live claim: its call is waiting or in flight.
    case held
    /// Another request's claim lapsed without an outcome (its instance stopped or lost the store
    /// mid-call): its call may have reached the provider, so the token may be spent.
    case abandoned
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
