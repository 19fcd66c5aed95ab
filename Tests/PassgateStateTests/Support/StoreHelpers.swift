import OpenSSLCrypto
import PassgateState
import PassgateTestSupport
import Testing

/// A fresh random 32-byte replay encryption key.
func randomKey() throws -> [UInt8] {
    try SecureRandom.bytes(count: 32)
}

/// Makes a store on `server`, runs `body`, and shuts the store down whatever happens.
func withStore<T>(
    _ server: RedisServerProcess,
    credentials: RedisCredentials? = nil,
    key: [UInt8]? = nil,
    connections: Int = 4,
    timeoutMs: Int = 500,
    _ body: (RedisStateStore) async throws -> T
) async throws -> T {
    let store = try RedisStateStore(
        url: server.url, credentials: credentials, encryptionKey: try key ?? randomKey(), connections: connections,
        operationTimeoutMs: timeoutMs)
    do {
        let result = try await body(store)
        await store.shutdown()
        return result
    } catch {
        await store.shutdown()
        throw error
    }
}

/// Runs `body`, expects a `StateStoreError` of `kind`, and returns it.
@discardableResult
func expectStateError<T>(
    _ kind: StateStoreError.Kind,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async -> StateStoreError? {
    do {
        _ = try await body()
        Issue.record("expected a \(kind.rawValue) StateStoreError, but the operation succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as StateStoreError {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a \(kind.rawValue) StateStoreError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Milliseconds `body` took.
func elapsedMs(_ body: () async throws -> Void) async rethrows -> Int {
    let start = ContinuousClock.now
    try await body()
    let duration = ContinuousClock.now - start
    return Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
}
