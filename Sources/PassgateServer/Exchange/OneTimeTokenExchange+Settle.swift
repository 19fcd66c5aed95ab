import PassgateCore
import Logging
import NIOCore
import PassgateState

/// What becomes of a token once its call is over.
enum Settlement: Equatable, Sendable {
    /// Remember this outcome for the replay TTL: the answer for every retry.
    case store(StoredOutcome)
    /// Remember nothing and drop the claim: the call provably never left, or the provider said
    /// the same token may be sent again.
    case release

    /// - Parameter outcome: how a success is stored.
    init<Value>(_ exchange: CarrierExchange<Value>, outcome: (Value) -> StoredOutcome) {
        switch exchange.result {
        case .success(let value):
            self = .store(outcome(value))
        case .failure(let error):
            switch error.reason {
            case .transport(let failure):
                self = failure.kind.mayHaveBeenDelivered ? .store(.spentOutcomeUnknown(after: error)) : .release
            case .reply:
                // The provider answered something we could not read: it may have spent the token.
                self = .store(.spentOutcomeUnknown(after: error))
            case .carrier, .decryption:
                // The provider's own answer: final, unless its code says the same token may be retried.
                self = error.retryable ? .release : .store(StoredOutcome(error))
            case .local, .request:
                // Refused before sending (call cap, open circuit, a request that could not be built)
                // when no call was made; anything else that went wrong around a call may have sent it.
                self = exchange.call == nil ? .release : .store(.spentOutcomeUnknown(after: error))
            }
        }
    }
}

extension OneTimeTokenExchange {
    /// Stores the call's outcome (first one wins) and drops this request's claim, or only drops
    /// the claim. A store that fails is asked again after each of `writeRetryDelaysMs`; when it
    /// still fails the give-up is logged and counted (`passgate_state_store_giveups_total`), and
    /// the claim, which could not be dropped either, lapses: later requests then learn that the
    /// token may be spent, never call again.
    func settle<Value>(key: String, owner: String?, exchange: CarrierExchange<Value>, stored: (Value) -> StoredOutcome, logger: Logger) async {
        switch Settlement(exchange, outcome: stored) {
        case .store(let outcome):
            let value = outcome.encoded()
            let kept = await persist("settle", logger: logger) { [store, ttlMs] () async throws(StateStoreError) -> [UInt8]? in
                try await store.settle(key, value: value, ttlMs: ttlMs, owner: owner)
            }
            // A repeated attempt (or the store's reconnect) may find this very outcome.
            if case .some(.some(let existing)) = kept, existing != value {
                logger.warning("an earlier outcome for this token is stored and stays the answer for retries; this request answers what the provider said")
            }
        case .release:
            guard let owner else { return }
            _ = await persist("release", logger: logger) { [store] () async throws(StateStoreError) -> Void in
                try await store.release(key, owner: owner)
            }
        }
    }

    /// Runs `operation`, again after each pause of `writeRetryDelaysMs` while it fails; `nil`
    /// once every attempt failed.
    private func persist<T>(_ operation: String, logger: Logger, _ body: () async throws(StateStoreError) -> T) async -> T? {
        let loop = timers.any()
        var lastError: StateStoreError?
        // Each pause is reckoned from when the failed attempt was sent.
        var sentAt = loop.now
        for attempt in 0...timing.writeRetryDelaysMs.count {
            if attempt > 0 {
                await loop.pause(until: sentAt + .milliseconds(Int64(timing.writeRetryDelaysMs[attempt - 1])))
                sentAt = loop.now
            }
            do {
                return try await body()
            } catch {
                lastError = error
            }
        }
        metrics.recordStateStoreGiveUp(operation: operation)
        logger.error("state store write failed after a provider call; gave up", metadata: [
            "operation": .string(operation), "attempts": .stringConvertible(timing.writeRetryDelaysMs.count + 1),
            "error": .string(lastError?.description ?? "-"),
            "consequence": "the claim lapses, and retries of this token are then told it may be spent (no second provider call)",
        ])
        return nil
    }
}
