import PassgateCore
import Logging
import NIOCore
import NIOPosix
import OpenSSLCrypto
import PassgateConfig
import PassgateState
import Synchronization
import Tracing

/// An exchange's answer, and whether it repeats an earlier one.
struct ExchangeAnswer<Value: Sendable>: Sendable {
    var result: Result<Value, PassgateError>
    var replayed: Bool
}

/// One-time tokens: a token reaches the provider at most once, and every request for it gets
/// the same answer.
///
/// - The final outcome of each exchange is kept under `HMAC(replayKey, client, app, operation,
///   token[, phone][, single-use provider fields])` for `ttlMs`; a repeat gets it back with `replayed: true`. Tokens never
///   reach the store. The first outcome stored is the answer for good (``ExchangeStateStore``).
/// - A call that may have reached the provider without a known outcome (a timeout or reset after
///   sending, an unreadable reply) is remembered as such: a retry gets the same `new_token`
///   answer, never a second call (OneTimeTokenExchange+Settle.swift).
/// - Concurrent duplicates share one provider call: in-process through a map of `SharedFlight`s,
///   across instances through a fenced, leased claim in the shared store
///   (OneTimeTokenExchange+Claim.swift).
/// - The first request for a token makes the provider call in its own task. A client that
///   disconnects does not cancel it (Hummingbird never cancels a handler for that), so the call
///   completes and its outcome is stored for the retry (`OneTimeTokenTests.disconnectThenRetry`).
final class OneTimeTokenExchange: Sendable {
    /// What followers in this process get: the leader's outcome in the stored form.
    typealias Flight = SharedFlight<Result<StoredOutcome, PassgateError>>

    /// How claims behave across instances, and how hard a settled outcome is pressed into the store.
    struct Timing: Sendable {
        /// A claim's lease; renewed every third of it while its call lasts.
        var leaseMs = 5_000
        /// How long a request that finds another request's live claim waits for its outcome.
        var inFlightWaitMs = 5_000
        /// Pauses between the attempts to store an outcome (or release a claim) after a call:
        /// one attempt more than there are pauses.
        var writeRetryDelaysMs = [50, 200, 800]
    }

    let gateway: any CarrierGateway
    let store: any ExchangeStateStore
    /// Keyed once: every request hashes its token with it.
    let replayKey: HMACSHA256Key
    let ttlMs: Int
    let timing: Timing
    /// Where leases are renewed and waits are timed (tests pass a loop whose time they move).
    let timers: any EventLoopGroup
    let metrics: PassgateMetrics
    /// Spans for the replay-cache lookup and the claim; `nil` with tracing off.
    let tracer: PassgateTracer?
    // `Mutex`: the flight map is touched briefly on each request; never held across an await.
    private let flights = Mutex<[String: Flight]>([:])

    /// Throws when OpenSSL cannot key an HMAC: without it a token would have no safe replay key.
    init(
        gateway: any CarrierGateway, store: any ExchangeStateStore, replayKey: [UInt8], ttlMs: Int, timing: Timing = .init(),
        timers: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, metrics: PassgateMetrics, tracer: PassgateTracer? = nil
    ) throws {
        self.tracer = tracer
        self.gateway = gateway
        self.store = store
        self.replayKey = try HMACSHA256Key(key: replayKey)
        self.ttlMs = ttlMs
        self.timing = timing
        self.timers = timers
        self.metrics = metrics
        metrics.registerStateStore()
    }

    func phoneNumber(client: String, app: AppSettings, token: String, fields: ProviderFields = .none, logger: Logger) async -> ExchangeAnswer<PhoneNumberOutcome> {
        guard let key = replayKey(client, app.appId, "phone_number", token, fields: fields) else { return ExchangeAnswer(result: .failure(Self.hashFailure), replayed: false) }
        return await exchange(
            key: key, logger: logger, stored: { .phoneNumber(phoneNumber: $0.phoneNumber, taskId: $0.carrierTaskId, riskScore: $0.riskScore) },
            replayed: { stored in
                guard case .phoneNumber(let number, let taskId, let riskScore) = stored else { return nil }
                return PhoneNumberOutcome(phoneNumber: number, carrierTaskId: taskId, riskScore: riskScore)
            }
        ) { [gateway] in await gateway.phoneNumber(app: app, token: token, fields: fields, logger: logger) }
    }

    func verify(
        client: String, app: AppSettings, token: String, phoneNumber: String, fields: ProviderFields = .none, logger: Logger
    ) async -> ExchangeAnswer<VerificationOutcome> {
        guard let key = replayKey(client, app.appId, "verify", token, phoneNumber, fields: fields) else { return ExchangeAnswer(result: .failure(Self.hashFailure), replayed: false) }
        return await exchange(
            key: key, logger: logger, stored: { .verification(result: $0.result, taskId: $0.carrierTaskId) },
            replayed: { stored in
                guard case .verification(let verdict, let taskId) = stored else { return nil }
                return VerificationOutcome(result: verdict, carrierTaskId: taskId)
            }
        ) { [gateway] in await gateway.verify(app: app, token: token, phoneNumber: phoneNumber, fields: fields, logger: logger) }
    }

    /// The keyed hash a token is known by; parts are separated so no two tuples collide. nil only
    /// if OpenSSL fails mid-operation (out of memory): never the token itself as a key.
    ///
    /// The single-use provider fields follow the parts, sorted by name, each as RS, name, US, the
    /// value's length in bytes, US, value: a name holds neither separator and the length says
    /// where a value ends, so no two sets of values share a message; and no part before them can
    /// hold RS (tokens are printable ASCII, numbers digits). Other fields are left out: a carrier's
    /// name does not make the same token a new exchange. Without single-use fields the message
    /// is the parts alone, so entries written by earlier versions are still found.
    func replayKey(_ parts: String..., fields: ProviderFields = .none) -> String? {
        // The bytes of `parts.joined(separator: "\u{1F}")`, without the intermediate String.
        var message: [UInt8] = []
        message.reserveCapacity(parts.reduce(parts.count) { $0 + $1.utf8.count })
        for (index, part) in parts.enumerated() {
            if index > 0 { message.append(0x1F) }
            message.append(contentsOf: part.utf8)
        }
        for (name, value) in fields.singleUse {
            message.append(0x1E)
            message.append(contentsOf: name.utf8)
            message.append(0x1F)
            message.append(contentsOf: String(value.utf8.count).utf8)
            message.append(0x1F)
            message.append(contentsOf: value.utf8)
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
        key: String, logger: Logger, stored: @Sendable (Value) -> StoredOutcome, replayed: @escaping @Sendable (StoredOutcome) -> Value?,
        call: @Sendable () async -> CarrierExchange<Value>
    ) async -> ExchangeAnswer<Value> {
        // A shared store's claim answers with the stored outcome itself: one round trip to Redis
        // for a repeat or a new token alike, instead of a read and then a claim.
        if !store.isShared {
            let span = tracer?.childSpan("replay_cache.lookup")
            defer { span?.end() }
            do {
                let bytes = try await store.get(key)
                span?.attributes["passgate.replay.hit"] = bytes != nil
                if let bytes { return Self.answer(bytes, replayed) }
            } catch {
                span?.setStatus(SpanStatus(code: .error, message: "state store: \(error.kind.rawValue)"))
                return ExchangeAnswer(result: .failure(Self.storeFailure(error)), replayed: false)
            }
        }
        let (flight, leads) = flights.withLock { running -> (Flight, Bool) in
            if let existing = running[key] { return (existing, false) }
            let flight = Flight()
            running[key] = flight
            return (flight, true)
        }
        if !store.isShared, let span = tracer?.childSpan("claim") {
            // In one process the flight map is the claim: leading, or joining a call in flight.
            span.attributes["passgate.claim.scope"] = "process"
            span.attributes["passgate.claim.result"] = leads ? "claimed" : "joined"
            span.end()
        }
        guard leads else {
            switch await flight.wait() {
            case .success(let outcome): return Self.answer(outcome, replayed)
            case .failure(let error): return ExchangeAnswer(result: .failure(error), replayed: true)
            }
        }
        let result = await lead(key: key, logger: logger, stored: stored, replayed: replayed, call: call)
        // Out of the map first: a request after this point finds the stored outcome instead.
        _ = flights.withLock { $0.removeValue(forKey: key) }
        flight.finish(result.result.map(stored))
        return result
    }

    /// A stored outcome as the answer to a repeat. Bytes that do not decode are answered as an
    /// error, not taken for a miss: a miss would call the provider with a token already sent.
    static func answer<Value>(_ bytes: [UInt8], _ replayed: @Sendable (StoredOutcome) -> Value?) -> ExchangeAnswer<Value> {
        guard let outcome = StoredOutcome.decode(bytes) else {
            return ExchangeAnswer(result: .failure(.internalError("a replay-cache entry does not decode")), replayed: true)
        }
        return answer(outcome, replayed)
    }

    static func answer<Value>(_ outcome: StoredOutcome, _ replayed: @Sendable (StoredOutcome) -> Value?) -> ExchangeAnswer<Value> {
        if let error = outcome.error { return ExchangeAnswer(result: .failure(error), replayed: true) }
        guard let value = replayed(outcome) else { return ExchangeAnswer(result: .failure(.internalError("replay entry of the wrong kind")), replayed: true) }
        return ExchangeAnswer(result: .success(value), replayed: true)
    }

    static func storeFailure(_ error: StateStoreError) -> PassgateError {
        PassgateError(
            .carrierUnavailable, .local(error.description),
            message: "Passgate's state store is unavailable (\(error.kind.rawValue)); the carrier was not called, so retrying with the same token is safe.",
            underlying: error
        )
    }
}
