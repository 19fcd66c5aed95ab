import DedicatedThreads
import Logging
import OpenSSLCrypto

/// The state store shared by several Passgate instances, in Redis through hiredis.
///
/// - Replay values live under `passgate:replay:<key>`, sealed with AES-256-GCM under
///   `encryptionKey` with the key as associated data, so Redis never holds them in clear and a
///   value copied to another key does not open.
/// - Claims live under `passgate:flight:<key>`; claiming, renewing, settling and releasing are Lua
///   scripts (RedisStateStore+Scripts.swift), so each check and its write are one atomic step.
///
/// hiredis is blocking, so every call runs on a `BlockingWorkerPool` of `connections` dedicated OS
/// threads (`pg-redis-N`), each a `RedisWorker` with its own connection. A command waits at most
/// about `operationTimeoutMs` for a free connection and `operationTimeoutMs` per socket
/// read/write; connecting has the same timeout. Broken connections are dropped and re-created on
/// the next command, so the store recovers by itself when Redis comes back.
///
/// A `Service`: in a `ServiceGroup` (listed before the services that use it, so it stops after
/// them) a graceful shutdown runs the commands still queued, then the threads close their
/// connections and exit; cancellation is ``shutdown()``. Outside a group call ``shutdown()`` when
/// done; dropping the store without either stops the threads in the background.
public final class RedisStateStore: ExchangeStateStore {
    public let url: RedisURL
    private let encryptionKey: [UInt8]
    private let workers: BlockingWorkerPool<RedisWorker>

    static let replayPrefix = "passgate:replay:"
    static let flightPrefix = "passgate:flight:"

    /// - Parameters:
    ///   - url: `redis://host[:port][/db]`.
    ///   - credentials: `AUTH` on every new connection; `nil` for a Redis without a password.
    ///   - encryptionKey: 32 bytes (AES-256) sealing replay values.
    ///   - connections: worker threads, each with one connection (1…64).
    ///   - operationTimeoutMs: connect and command timeout (> 0).
    /// - Throws: `RedisConfigurationError` for a bad URL, key, pool size or timeout. Does not
    ///   connect: an unreachable Redis shows in the first operation (or ``ping()``).
    public convenience init(
        url: String,
        credentials: RedisCredentials? = nil,
        encryptionKey: [UInt8],
        connections: Int = 4,
        operationTimeoutMs: Int = 500,
        logger: Logger = Logger(label: "passgate.state.redis")
    ) throws(RedisConfigurationError) {
        try self.init(
            url: RedisURL(parsing: url), credentials: credentials, encryptionKey: encryptionKey, connections: connections,
            operationTimeoutMs: operationTimeoutMs, logger: logger)
    }

    public init(
        url: RedisURL,
        credentials: RedisCredentials? = nil,
        encryptionKey: [UInt8],
        connections: Int = 4,
        operationTimeoutMs: Int = 500,
        logger: Logger = Logger(label: "passgate.state.redis")
    ) throws(RedisConfigurationError) {
        guard encryptionKey.count == AESGCM.keyLength else {
            throw RedisConfigurationError(
                "redis state store encryption key must be \(AESGCM.keyLength) bytes, got \(encryptionKey.count)")
        }
        guard (1...64).contains(connections) else {
            throw RedisConfigurationError("redis state store connections must be from 1 to 64, got \(connections)")
        }
        guard operationTimeoutMs > 0 else {
            throw RedisConfigurationError("redis state store operation timeout must be positive, got \(operationTimeoutMs) ms")
        }
        self.url = url
        self.encryptionKey = encryptionKey
        var logger = logger
        logger[metadataKey: "redis"] = "\(url.endpoint)"
        workers = try .redis(url: url, credentials: credentials, connections: connections, timeoutMs: operationTimeoutMs, logger: logger)
    }

    deinit {
        workers.stop()
    }

    /// Stops the worker threads (after their current command), fails queued commands with
    /// `.unavailable`, and frees the connections; returns once every thread has exited.
    public func shutdown() async {
        workers.stop()
        await workers.waitUntilStopped()
    }

    /// Runs until the service group shuts down gracefully (then runs the queued commands and
    /// stops) or the task is cancelled (then ``shutdown()``); returns once every thread has exited.
    public func run() async throws {
        try await workers.run()
    }

    // MARK: - ExchangeStateStore

    public func get(_ key: String) async throws(StateStoreError) -> [UInt8]? {
        let reply = try await run(["GET", Self.replayPrefix + key])
        switch reply {
        case .null: return nil
        case .bulk(let sealed): return try open(sealed, key: key)
        default: throw unexpected(reply, to: "GET")
        }
    }

    public func settle(_ key: String, value: [UInt8], ttlMs: Int, owner: String?) async throws(StateStoreError) -> [UInt8]? {
        let sealed: [UInt8]
        do {
            sealed = try AESGCM.seal(value, key: encryptionKey, associatedData: Array(key.utf8))
        } catch {
            throw StateStoreError(.unavailable, "redis at \(url.endpoint): cannot encrypt a replay value (\(error))")
        }
        // Redis rejects `PX 0`; a non-positive lifetime becomes the shortest one.
        let reply = try await run([
            Array("EVAL".utf8), Array(Self.settleScript.utf8), Array("2".utf8), Array((Self.replayPrefix + key).utf8),
            Array((Self.flightPrefix + key).utf8), sealed, Array(String(max(ttlMs, 1)).utf8), Array((owner ?? "").utf8),
        ])
        switch reply {
        case .null: return nil
        case .bulk(let stored): return try open(stored, key: key)
        default: throw unexpected(reply, to: "EVAL (settle)")
        }
    }

    public func claim(_ key: String, owner: String, leaseMs: Int, ttlMs: Int) async throws(StateStoreError) -> ClaimAnswer {
        let reply = try await run([
            "EVAL", Self.claimScript, "2", Self.replayPrefix + key, Self.flightPrefix + key, owner, String(max(leaseMs, 1)),
            String(max(ttlMs, 1)),
        ])
        guard case .array(let parts) = reply, case .bulk(let word)? = parts.first else { throw unexpected(reply, to: "EVAL (claim)") }
        switch (String(decoding: word, as: UTF8.self), parts.count) {
        case ("claimed", 1): return .claimed
        case ("held", 1): return .held
        case ("abandoned", 1): return .abandoned
        case ("stored", 2):
            guard case .bulk(let stored) = parts[1] else { throw unexpected(reply, to: "EVAL (claim)") }
            return .stored(try open(stored, key: key))
        default: throw unexpected(reply, to: "EVAL (claim)")
        }
    }

    public func renew(_ key: String, owner: String, leaseMs: Int) async throws(StateStoreError) -> Bool {
        let reply = try await run(["EVAL", Self.renewScript, "1", Self.flightPrefix + key, owner, String(max(leaseMs, 1))])
        guard case .integer(let renewed) = reply else { throw unexpected(reply, to: "EVAL (renew)") }
        return renewed == 1
    }

    public func release(_ key: String, owner: String) async throws(StateStoreError) {
        let reply = try await run(["EVAL", Self.releaseScript, "1", Self.flightPrefix + key, owner])
        guard case .integer = reply else { throw unexpected(reply, to: "EVAL (release)") }
    }

    public func ping() async throws(StateStoreError) {
        let reply = try await run(["PING"])
        guard case .status = reply else { throw unexpected(reply, to: "PING") }
    }

    // MARK: - Helpers

    private func run(_ arguments: [String]) async throws(StateStoreError) -> RedisReply {
        try await run(arguments.map { Array($0.utf8) })
    }

    /// Sends one command through the pool; a Redis error reply becomes a `StateStoreError`.
    private func run(_ arguments: [[UInt8]]) async throws(StateStoreError) -> RedisReply {
        let reply = try await workers.perform { RedisJob(arguments: arguments, enqueuedAt: .now, continuation: $0) }.get()
        if case .error(let message) = reply {
            let code = RedisReply.errorCode(message)
            let command = String(decoding: arguments.first ?? [], as: UTF8.self)
            if code == "NOAUTH" {
                throw StateStoreError(.unavailable, "redis at \(url.endpoint) requires a password (NOAUTH): set state.redisPassword")
            }
            throw StateStoreError(
                RedisReply.isTransient(errorCode: code) ? .unavailable : .corrupt,
                "redis at \(url.endpoint): \(command) answered with error \(code)")
        }
        return reply
    }

    /// Opens a sealed replay value stored under `key`.
    private func open(_ sealed: [UInt8], key: String) throws(StateStoreError) -> [UInt8] {
        do {
            return try AESGCM.open(sealed, key: encryptionKey, associatedData: Array(key.utf8))
        } catch {
            throw StateStoreError(
                .corrupt, "redis at \(url.endpoint): a replay value does not decrypt (different replay encryption key, or altered)")
        }
    }

    private func unexpected(_ reply: RedisReply, to command: String) -> StateStoreError {
        StateStoreError(.corrupt, "redis at \(url.endpoint): unexpected \(reply.kindName) reply to \(command)")
    }
}
