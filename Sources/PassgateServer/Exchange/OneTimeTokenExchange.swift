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
final class OneTimeTokenExchange: Sendable {
    /// What followers in this process get: the leader's outcome in the stored form.
    typealias Flight = SharedFlight<Result<StoredOutcome, PassgateError>>

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
        return await exchange(
            key: key, logger: logger, stored: { .phoneNumber(phoneNumber: $0.phoneNumber, taskId: $0.carrierTaskId, riskScore: $0.riskScore) },
            replayed: { stored in
                guard case .phoneNumber(let number, let taskId, let riskScore) = stored else { return nil }
                return PhoneNumberOutcome(phoneNumber: number, carrierTaskId: taskId, riskScore: riskScore)
            }
        ) { [gateway] in await gateway.phoneNumber(app: app, token: token, logger: logger).result }
    }

    func verify(client: String, app: AppSettings, token: String, phoneNumber: String, logger: Logger) async -> ExchangeAnswer<VerificationOutcome> {
        guard let key = replayKey(client, app.appId, "verify", token, phoneNumber) else { return ExchangeAnswer(result: .failure(Self.hashFailure), replayed: false) }
        return await exchange(
            key: key, logger: logger, stored: { .verification(result: $0.result, taskId: $0.carrierTaskId) },
            replayed: { stored in
                guard case .verification(let verdict, let taskId) = stored else { return nil }
                return VerificationOutcome(result: verdict, carrierTaskId: taskId)
            }
        ) { [gateway] in await gateway.verify(app: app, token: token, phoneNumber: phoneNumber, logger: logger).result }
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

    /// The stored outcome, a shared in-flight call, or a new call. The leader keeps its own
    /// outcome; `StoredOutcome` is only the form the store and the followers see.
    private func exchange<Value: Sendable>(
        key: String, logger: Logger, stored: @Sendable (Value) -> StoredOutcome, replayed: @Sendable (StoredOutcome) -> Value?,
        call: @Sendable () async -> Result<Value, PassgateError>
    ) async -> ExchangeAnswer<Value> {
        func answer(_ outcome: StoredOutcome) -> ExchangeAnswer<Value> {
            if let error = outcome.error { return ExchangeAnswer(result: .failure(error), replayed: true) }
            guard let value = replayed(outcome) else { return ExchangeAnswer(result: .failure(.internalError("replay entry of the wrong kind")), replayed: true) }
            return ExchangeAnswer(result: .success(value), replayed: true)
        }
        do {
            if let bytes = try await store.get(key), let outcome = StoredOutcome.decode(bytes) { return answer(outcome) }
        } catch {
            return ExchangeAnswer(result: .failure(Self.storeFailure(error)), replayed: false)
        }
        let (flight, leads) = flights.withLock { running -> (Flight, Bool) in
            if let existing = running[key] { return (existing, false) }
            let flight = Flight()
            running[key] = flight
            return (flight, true)
        }
        guard leads else {
            switch await flight.wait() {
            case .success(let outcome): return answer(outcome)
            case .failure(let error): return ExchangeAnswer(result: .failure(error), replayed: true)
            }
        }
        let result = await lead(key: key, logger: logger, stored: stored, replayed: replayed, call: call)
        // Out of the map first: a request after this point finds the stored outcome instead.
        _ = flights.withLock { $0.removeValue(forKey: key) }
        flight.finish(result.result.map(stored))
        return result
    }

    /// Claims the token across instances (only when the store is shared: in one process the
    /// flight map above already holds every duplicate), calls the carrier, stores a final
    /// outcome, releases.
    private func lead<Value: Sendable>(
        key: String, logger: Logger, stored: @Sendable (Value) -> StoredOutcome, replayed: @Sendable (StoredOutcome) -> Value?,
        call: @Sendable () async -> Result<Value, PassgateError>
    ) async -> ExchangeAnswer<Value> {
        let shared = store.isShared
        if shared {
            do {
                guard try await store.claim(key, owner: instance, ttlMs: flightMs) else {
                    let (outcome, _) = try await follow(key: key, logger: logger)
                    return outcome.map { outcome in
                        outcome.error.map { ExchangeAnswer(result: .failure($0), replayed: true) }
                            ?? replayed(outcome).map { ExchangeAnswer(result: .success($0), replayed: true) }
                            ?? ExchangeAnswer(result: .failure(.internalError("replay entry of the wrong kind")), replayed: true)
                    } ?? ExchangeAnswer(result: .failure(Self.followTimeout), replayed: false)
                }
                // A previous leader may have stored its outcome and released the claim between our
                // cache miss and our claim: look again before spending the token a second time.
                if let bytes = try await store.get(key), let outcome = StoredOutcome.decode(bytes) {
                    try await store.release(key, owner: instance)
                    if let error = outcome.error { return ExchangeAnswer(result: .failure(error), replayed: true) }
                    if let value = replayed(outcome) { return ExchangeAnswer(result: .success(value), replayed: true) }
                }
            } catch {
                return ExchangeAnswer(result: .failure(Self.storeFailure(error)), replayed: false)
            }
        }
        let result = await call()
        do {
            if Self.isFinal(result) {
                let outcome: StoredOutcome = switch result {
                case .success(let value): stored(value)
                case .failure(let error): StoredOutcome(error)
                }
                try await store.set(key, value: outcome.encoded(), ttlMs: ttlMs)
            }
            if shared { try await store.release(key, owner: instance) }
        } catch {
            // The caller still gets the carrier's answer; only a repeat may miss the cache.
            logger.error("state store write failed after a carrier call", metadata: ["error": .string(error.description)])
        }
        return ExchangeAnswer(result: result, replayed: false)
    }

    /// Only what is final for the token is remembered: a success, or a token-level rejection.
    /// Transport failures are not: a retry may still reach the carrier and learn the truth.
    static func isFinal<Value>(_ result: Result<Value, PassgateError>) -> Bool {
        switch result {
        case .success: true
        case .failure(let error): error.code.isTokenLevel
        }
    }

    /// Another instance holds the claim: wait for its outcome to appear in the store; nil when
    /// none appears within `flightMs`.
    private func follow(key: String, logger: Logger) async throws(StateStoreError) -> (StoredOutcome?, Bool) {
        let deadline = ContinuousClock.now + .milliseconds(flightMs)
        while ContinuousClock.now < deadline {
            if let bytes = try await store.get(key), let stored = StoredOutcome.decode(bytes) {
                return (stored, true)
            }
            try? await Task.sleep(for: .milliseconds(25))
        }
        logger.warning("no outcome from the instance that claimed this token")
        return (nil, false)
    }

    static let followTimeout = PassgateError(
        .carrierTimeout, .local("another instance claimed this token and stored no outcome in time"),
        message: "Another request for this token is in flight elsewhere and did not finish in time; the token may be spent."
    )

    static func storeFailure(_ error: StateStoreError) -> PassgateError {
        PassgateError(
            .carrierUnavailable, .local(error.description),
            message: "Passgate's state store is unavailable (\(error.kind.rawValue)); the carrier was not called, so retrying with the same token is safe.",
            underlying: error
        )
    }
}
