import PassgateCore
import Logging
import NIOCore
import PassgateState
import Tracing

extension OneTimeTokenExchange {
    /// Claims the token across instances (only when the store is shared: in one process the
    /// flight map already holds every duplicate), calls the provider while the claim's lease is
    /// renewed, and settles the outcome.
    ///
    /// A request that finds another request's live claim waits for its outcome, asking again with
    /// growing pauses, for at most `inFlightWaitMs`, then answers `call_in_progress` (retryable: the
    /// same token will get the outcome). If that claim is released meanwhile (its call provably
    /// never left) this request takes the claim and calls; if its lease lapses without an outcome,
    /// the token may be spent and this request records and answers that.
    func lead<Value: Sendable>(
        key: String, logger: Logger, stored: @Sendable (Value) -> StoredOutcome, replayed: @escaping @Sendable (StoredOutcome) -> Value?,
        call: @Sendable () async -> CarrierExchange<Value>
    ) async -> ExchangeAnswer<Value> {
        guard store.isShared else {
            let exchange = await call()
            await settle(key: key, owner: nil, exchange: exchange, stored: stored, logger: logger)
            return ExchangeAnswer(result: exchange.result, replayed: false)
        }
        let loop = timers.any()
        // One owner per request: a claim is this request's, not this instance's.
        let owner = MessageID.make()
        let deadline = loop.now + .milliseconds(Int64(timing.inFlightWaitMs))
        var pause = TimeAmount.milliseconds(10)
        let span = tracer?.childSpan("claim")
        span?.attributes["passgate.claim.scope"] = "store"
        // Ended at the first answer that is not `held`: the provider call is the claim's sibling.
        func claimed(_ result: String) {
            span?.attributes["passgate.claim.result"] = result
            span?.end()
        }
        while true {
            let claimedAt = loop.now
            let answer: ClaimAnswer
            do {
                answer = try await store.claim(key, owner: owner, leaseMs: timing.leaseMs, ttlMs: ttlMs)
            } catch {
                span?.setStatus(SpanStatus(code: .error, message: "state store: \(error.kind.rawValue)"))
                claimed("store_failed")
                return ExchangeAnswer(result: .failure(Self.storeFailure(error)), replayed: false)
            }
            switch answer {
            case .claimed:
                claimed("claimed")
                let lease = ClaimLease(
                    store: store, key: key, owner: owner, lease: .milliseconds(Int64(timing.leaseMs)), claimedAt: claimedAt, loop: loop,
                    logger: logger)
                let exchange = await call()
                if !lease.isLive {
                    logger.warning("the claim's lease lapsed during the provider call: requests for this token meanwhile were told it may be spent")
                }
                lease.stop()
                await settle(key: key, owner: owner, exchange: exchange, stored: stored, logger: logger)
                return ExchangeAnswer(result: exchange.result, replayed: false)
            case .stored(let bytes):
                claimed("stored")
                return Self.answer(bytes, replayed)
            case .abandoned:
                claimed("abandoned")
                return await recordAbandoned(key: key, replayed: replayed, logger: logger)
            case .held:
                let now = loop.now
                guard now < deadline else {
                    claimed("in_progress")
                    logger.notice("another request holds this token's provider call; answered call_in_progress", metadata: [
                        "waitedMs": .stringConvertible(timing.inFlightWaitMs)
                    ])
                    return ExchangeAnswer(result: .failure(Self.callInProgress(waitedMs: timing.inFlightWaitMs)), replayed: false)
                }
                // Reckoned from when this ask was sent, so the asks are `pause` apart however long
                // each round trip took.
                await loop.pause(until: min(claimedAt + pause, deadline))
                pause = min(pause * 2, .milliseconds(200))
            }
        }
    }

    /// Another request's claim lapsed without an outcome: its call may have reached the provider.
    /// The token is recorded as spent-outcome-unknown (unless an outcome got there first, which
    /// then stands) and this request answers with whatever the store now holds.
    private func recordAbandoned<Value>(key: String, replayed: @Sendable (StoredOutcome) -> Value?, logger: Logger) async -> ExchangeAnswer<Value> {
        logger.warning("found another request's claim on this token lapsed without an outcome: the token may be spent; recorded so")
        let marker = StoredOutcome.abandonedClaim
        do {
            if let existing = try await store.settle(key, value: marker.encoded(), ttlMs: ttlMs, owner: nil) {
                return Self.answer(existing, replayed)
            }
        } catch {
            return ExchangeAnswer(result: .failure(Self.storeFailure(error)), replayed: false)
        }
        return Self.answer(marker, replayed)
    }

    static func callInProgress(waitedMs: Int) -> PassgateError {
        var error = PassgateError(
            .callInProgress, .local("another request holds the claim on this token"),
            message: "Another request with this token is calling the provider and had no outcome after \(waitedMs) ms (state.inFlightWaitMs): retry with the same token to get its outcome. Passgate never calls the provider twice for one token."
        )
        error.retryAfterSeconds = 1
        return error
    }
}

extension EventLoop {
    /// Suspends the caller until `deadline` of this loop's time (so tests move it), resuming
    /// even if the loop shuts down first.
    func pause(until deadline: NIODeadline) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduleTask(deadline: deadline) {}.futureResult.whenComplete { _ in continuation.resume() }
        }
    }
}
