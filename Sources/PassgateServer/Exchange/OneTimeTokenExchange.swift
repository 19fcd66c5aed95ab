import PassgateCore
import Foundation
import Logging
import OpenSSLCrypto
import PassgateConfig
import PassgateState
import Synchronization

/// An exchange's answer, and whether it repeats an earlier one.
struct ExchangeAnswer<Value: Sendable>: Sendable {
    var result: Result<Value, PassgateError>
    var replayed: Bool
}

/// What the controllers call. A protocol so the single-instance and shared-state variants, and
/// tests, can stand in.
protocol TokenExchanging: Sendable {
    func phoneNumber(client: String, app: AppSettings, token: String, logger: Logger) async -> ExchangeAnswer<PhoneNumberOutcome>
    func verify(client: String, app: AppSettings, token: String, phoneNumber: String, logger: Logger) async -> ExchangeAnswer<VerificationOutcome>
}

/// One-time tokens: nothing lost, nothing spent twice.
///
/// - The final outcome of each exchange is kept under `HMAC(replayKey, client, app, operation,
///   token[, phone])` for `ttlMs`; a repeat gets it back with `replayed: true`. Tokens never
///   reach the store.
/// - Concurrent duplicates share one carrier call: in-process through a map of `SharedFlight`s,
///   across instances through the store's claim (`SET NX PX` on Redis).
/// - The first request for a token makes the carrier call in its own task. A client that
///   disconnects does not cancel it (Hummingbird never cancels a handler for that), so the call
///   completes and its outcome is stored for the retry (`OneTimeTokenTests.disconnectThenRetry`).
///   Only a forced shutdown, after the drain and shutdown timeouts, cancels it: the call then
///   ends as a transport failure, which is never stored.
final class OneTimeTokenExchange: TokenExchanging {
    typealias Flight = SharedFlight<(Result<StoredOutcome, PassgateError>, Bool)>

    let gateway: any CarrierGateway
    let store: any ExchangeStateStore
    /// Keyed once: every request hashes its token with it.
    let replayKey: HMACSHA256Key
    let ttlMs: Int
    /// How long a claim lives and how long a follower waits: the longest a carrier call can take.
    let flightMs: Int
    private let instance = MessageID.make()
    // `Mutex`: the flight map is touched briefly on each request; never held across an await.
    private let flights = Mutex<[String: Flight]>([:])

    /// Throws when OpenSSL cannot key an HMAC: without it a token would have no safe replay key.
    init(gateway: any CarrierGateway, store: any ExchangeStateStore, replayKey: [UInt8], ttlMs: Int, flightMs: Int) throws {
        self.gateway = gateway
        self.store = store
        self.replayKey = try HMACSHA256Key(key: replayKey)
        self.ttlMs = ttlMs
        self.flightMs = flightMs
    }

    func phoneNumber(client: String, app: AppSettings, token: String, logger: Logger) async -> ExchangeAnswer<PhoneNumberOutcome> {
        guard let key = replayKey(client, app.appId, "phone_number", token) else { return ExchangeAnswer(result: .failure(Self.hashFailure), replayed: false) }
        let (result, replayed) = await exchange(key: key, logger: logger) { [gateway] in
            await gateway.phoneNumber(app: app, token: token, logger: logger).result.map { .phoneNumber(phoneNumber: $0.phoneNumber, taskId: $0.carrierTaskId) }
        }
        return ExchangeAnswer(result: result.flatMap { stored in
            if case .phoneNumber(let number, let taskId) = stored { return .success(PhoneNumberOutcome(phoneNumber: number, carrierTaskId: taskId)) }
            return .failure(stored.error ?? .internalError("replay entry of the wrong kind"))
        }, replayed: replayed)
    }

    func verify(client: String, app: AppSettings, token: String, phoneNumber: String, logger: Logger) async -> ExchangeAnswer<VerificationOutcome> {
        guard let key = replayKey(client, app.appId, "verify", token, phoneNumber) else { return ExchangeAnswer(result: .failure(Self.hashFailure), replayed: false) }
        let (result, replayed) = await exchange(key: key, logger: logger) { [gateway] in
            await gateway.verify(app: app, token: token, phoneNumber: phoneNumber, logger: logger).result.map { .verification(result: $0.result, taskId: $0.carrierTaskId) }
        }
        return ExchangeAnswer(result: result.flatMap { stored in
            if case .verification(let verdict, let taskId) = stored { return .success(VerificationOutcome(result: verdict, carrierTaskId: taskId)) }
            return .failure(stored.error ?? .internalError("replay entry of the wrong kind"))
        }, replayed: replayed)
    }

    /// The keyed hash a token is known by; parts are separated so no two tuples collide. nil only
    /// if OpenSSL fails mid-operation (out of memory): never the token itself as a key.
    func replayKey(_ parts: String...) -> String? {
        // The bytes of `parts.joined(separator: "\u{1F}")`, without the intermediate String.
        var message: [UInt8] = []
        message.reserveCapacity(parts.reduce(parts.count) { $0 + $1.utf8.count })
        for (index, part) in parts.enumerated() {
            if index > 0 { message.append(0x1F) }
            message.append(contentsOf: part.utf8)
        }
        return (try? replayKey.authenticationCode(for: message)).map { Hex.lowercase($0) }
    }

    /// Nothing was sent: the carrier was not called, so a retry with the same token is safe.
    static let hashFailure = PassgateError(
        .internalError, .local("HMAC-SHA256 of the replay key failed in OpenSSL"),
        message: "Passgate could not hash the token for its replay cache; the carrier was not called, so retrying with the same token is safe."
    )

    /// The stored outcome, a shared in-flight call, or a new call.
    private func exchange(
        key: String, logger: Logger, call: @Sendable () async -> Result<StoredOutcome, PassgateError>
    ) async -> (Result<StoredOutcome, PassgateError>, Bool) {
        do {
            if let bytes = try await store.get(key), let stored = StoredOutcome.decode(bytes) {
                return (stored.result, true)
            }
        } catch {
            return (.failure(Self.storeFailure(error)), false)
        }
        let (flight, leads) = flights.withLock { running -> (Flight, Bool) in
            if let existing = running[key] { return (existing, false) }
            let flight = Flight()
            running[key] = flight
            return (flight, true)
        }
        guard leads else {
            let (result, _) = await flight.wait()
            return (result, true)
        }
        let outcome = await lead(key: key, logger: logger, call: call)
        // Out of the map first: a request after this point finds the stored outcome instead.
        _ = flights.withLock { $0.removeValue(forKey: key) }
        flight.finish(outcome)
        return outcome
    }

    /// Claims the token across instances, calls the carrier, stores a final outcome, releases.
    private func lead(
        key: String, logger: Logger, call: @Sendable () async -> Result<StoredOutcome, PassgateError>
    ) async -> (Result<StoredOutcome, PassgateError>, Bool) {
        do {
            guard try await store.claim(key, owner: instance, ttlMs: flightMs) else {
                return try await follow(key: key, logger: logger)
            }
            // A previous leader may have stored its outcome and released the claim between our
            // cache miss and our claim: look again before spending the token a second time.
            if let bytes = try await store.get(key), let stored = StoredOutcome.decode(bytes) {
                try await store.release(key, owner: instance)
                return (stored.result, true)
            }
        } catch {
            return (.failure(Self.storeFailure(error)), false)
        }
        let result = await call()
        do {
            if StoredOutcome.isFinal(result) {
                let stored: StoredOutcome = switch result {
                case .success(let outcome): outcome
                case .failure(let error): StoredOutcome(error)
                }
                try await store.set(key, value: stored.encoded(), ttlMs: ttlMs)
            }
            try await store.release(key, owner: instance)
        } catch {
            // The caller still gets the carrier's answer; only a repeat may miss the cache.
            logger.error("state store write failed after a carrier call", metadata: ["error": .string(error.description)])
        }
        return (result, false)
    }

    /// Another instance holds the claim: wait for its outcome to appear in the store.
    private func follow(key: String, logger: Logger) async throws(StateStoreError) -> (Result<StoredOutcome, PassgateError>, Bool) {
        let deadline = ContinuousClock.now + .milliseconds(flightMs)
        while ContinuousClock.now < deadline {
            if let bytes = try await store.get(key), let stored = StoredOutcome.decode(bytes) {
                return (stored.result, true)
            }
            try? await Task.sleep(for: .milliseconds(25))
        }
        logger.warning("no outcome from the instance that claimed this token")
        return (.failure(PassgateError(
            .carrierTimeout, .local("another instance claimed this token and stored no outcome in time"),
            message: "Another request for this token is in flight elsewhere and did not finish in time; the token may be spent."
        )), false)
    }

    static func storeFailure(_ error: StateStoreError) -> PassgateError {
        PassgateError(
            .carrierUnavailable, .local(error.description),
            message: "Passgate's state store is unavailable (\(error.kind.rawValue)); the carrier was not called, so retrying with the same token is safe.",
            underlying: error
        )
    }
}
