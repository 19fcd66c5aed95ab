import PassgateCore
import CCurl
import CoreMetrics
import DedicatedThreads
import Logging
import Synchronization

extension CurlEngine {
    /// A finished call, resumed outside the lock.
    struct Finished {
        let id: UInt64
        let continuation: CheckedContinuation<CurlHTTPClient.Response, any Error>
        let result: Result<CurlHTTPClient.Response, CurlTransportError>
    }

    /// The engine thread's body. Each turn: the state machine says what to admit, cancel, expire
    /// and abort, and how long to wait; the thread cancels and aborts on the multi handles, waits
    /// and lets curl act on the ready sockets (``CurlEventLoop/waitAndAct(maxWaitMs:)``), runs the
    /// watchdog's sweep, collects the finished transfers with `curl_multi_info_read` and answers
    /// their callers; then starts the admitted transfers one by one
    /// (``CurlEventLoop/runDueTimer(shard:)``), answering whatever ended after each; then runs
    /// curl's other due timers and reports the turn to the state machine; until a turn says exit.
    func runLoop() {
        guard let events else { return }
        var active: [UInt64: CurlTransfer] = [:]
        var watchdog = CurlWatchdog(enabled: events.mode != .polling, now: configuration.clock.monotonicNow())
        var shards = CurlShardPicker(shards: events.multis.count, capacity: configuration.transfersPerShard)
        // Past this age curl would not reuse an idle connection anyway (CURLOPT_MAXAGE_CONN).
        let idleShardAge = Duration.seconds(max(1, configuration.maxIdleConnectionSeconds))
        while true {
            let turnStart = configuration.clock.monotonicNow()
            let turn = state.withLock { $0.nextTurn(now: turnStart) }
            var finished: [Finished] = []
            for id in turn.cancel {
                guard let transfer = active.removeValue(forKey: id) else { continue }
                remove(transfer, events: events, watchdog: &watchdog, shards: &shards, now: turnStart)
                finished.append(transfer.finishCancelled(metrics: metrics))
            }
            if turn.abortActive {
                for transfer in active.values {
                    remove(transfer, events: events, watchdog: &watchdog, shards: &shards, now: turnStart)
                    finished.append(transfer.finishShutdown(metrics: metrics))
                }
                active.removeAll()
            }
            for submission in turn.expire { fail(submission, .shutdown) }
            if !turn.exit {
                events.waitAndAct(maxWaitMs: watchdog.maxWait(turn.maxWaitMs))
                let now = configuration.clock.monotonicNow()
                let sweep = watchdog.sweep(now: now)
                for id in sweep.nudge {
                    if let transfer = active[id], events.nudge(transfer.easy, shard: transfer.shard) {
                        metrics.watchdogNudged.increment()
                    }
                }
                for id in sweep.abandon {
                    guard let transfer = active.removeValue(forKey: id) else { continue }
                    shards.ended(transfer.shard, now: now)
                    finished.append(abandon(transfer, events: events))
                }
                collectDone(events: events, active: &active, watchdog: &watchdog, shards: &shards, now: now, into: &finished)
                // Callers are answered as soon as their transfers end, not at the turn's end, and
                // the transfers admitted in this turn start one at a time. Starting one writes its
                // request; a carrier sharing these cores can take the core at that write and
                // answer at once, and curl then reads the answer within the same call and runs
                // the next transfer on the same connection. Started together, a turn's transfers
                // would all end inside one curl call lasting milliseconds, their callers waiting
                // for it while the other core had nothing to run.
                deliverNow(&finished)
                for (id, submission) in turn.admit {
                    guard let shard = start(id, submission, events: events, active: &active, watchdog: &watchdog,
                                            shards: &shards, now: now, finished: &finished)
                    else { continue }
                    events.runDueTimer(shard: shard)
                    // That ran curl on this shard's multi handle alone: only its transfers can have ended.
                    collectDone(on: shard, events: events, active: &active, watchdog: &watchdog, shards: &shards, now: now,
                                into: &finished)
                    deliverNow(&finished)
                }
                events.runDueTimers()
                // Transfers that ended while curl ran its timers (a refused connection, a timeout).
                collectDone(events: events, active: &active, watchdog: &watchdog, shards: &shards, now: now, into: &finished)
                for index in shards.shardsToRenew(now: now, idleFor: idleShardAge) where !events.renew(shard: index) {
                    logger.warning(
                        "curl_multi_init failed (out of memory?): an idle multi handle keeps its connections open until it runs transfers again",
                        metadata: ["shard": "\(index)"])
                }
            }
            // Every turn reports, with or without transfers ended since the last report: the
            // state machine's turn bookkeeping and the gauges follow it.
            deliver(finished)
            if turn.exit { break }
        }
        metrics.inFlight.record(0)
        metrics.queued.record(0)
        active.removeAll()
        handles.close()
        events.close()
        logger.debug("curl engine stopped", metadata: ["thread": "\(threadName)"])
        exited.threadExited()
    }

    /// Puts an admitted call on a multi handle; returns its shard, or `nil` when it ended at once
    /// (the request could not be set up, or curl refused the handle), then in `finished`.
    private func start(
        _ id: UInt64, _ submission: Submission, events: CurlEventLoop, active: inout [UInt64: CurlTransfer],
        watchdog: inout CurlWatchdog, shards: inout CurlShardPicker, now: ContinuousClock.Instant,
        finished: inout [Finished]
    ) -> Int? {
        switch CurlTransfer.make(submission, configuration: configuration, handles: handles) {
        case .success(let transfer):
            transfer.shard = shards.pick()
            events.adopt(transfer.easy)
            guard curl_multi_add_handle(events.multis[transfer.shard], transfer.easy) == CURLM_OK else {
                shards.ended(transfer.shard, now: now)
                finished.append(transfer.finish(code: Int(CURLE_OUT_OF_MEMORY.rawValue), metrics: metrics))
                return nil
            }
            active[id] = transfer
            watchdog.started(id, deadline: transfer.deadline)
            metrics.started.increment()
            return transfer.shard
        case .failure(let error):
            finished.append(Finished(id: id, continuation: submission.continuation, result: .failure(error)))
            return nil
        }
    }

    /// Moves the transfers curl reports finished (on the shards that have transfers) from
    /// `active` to `finished`, taking them off their multi handles.
    private func collectDone(
        events: CurlEventLoop, active: inout [UInt64: CurlTransfer], watchdog: inout CurlWatchdog,
        shards: inout CurlShardPicker, now: ContinuousClock.Instant, into finished: inout [Finished]
    ) {
        for index in shards.busy {
            collectDone(on: index, events: events, active: &active, watchdog: &watchdog, shards: &shards, now: now,
                        into: &finished)
        }
    }

    /// ``collectDone(events:active:watchdog:shards:now:into:)`` for shard `index` alone.
    private func collectDone(
        on index: Int, events: CurlEventLoop, active: inout [UInt64: CurlTransfer], watchdog: inout CurlWatchdog,
        shards: inout CurlShardPicker, now: ContinuousClock.Instant, into finished: inout [Finished]
    ) {
        var easy: UnsafeMutableRawPointer?
        var code = CURLE_OK
        while CCurl_multi_next_done(events.multis[index], &easy, &code) == 1 {
            guard let done = easy, let transfer = CurlTransfer.owner(of: done),
                active.removeValue(forKey: transfer.id) != nil
            else { continue }
            remove(transfer, events: events, watchdog: &watchdog, shards: &shards, now: now)
            finished.append(transfer.finish(code: Int(code.rawValue), metrics: metrics))
        }
    }

    /// Answers the callers of `finished` now, if there are any, and empties it.
    private func deliverNow(_ finished: inout [Finished]) {
        guard !finished.isEmpty else { return }
        deliver(finished)
        finished.removeAll(keepingCapacity: true)
    }

    /// Reports ended transfers to the state machine, records the gauges, then answers the
    /// callers (outside the lock). The gauges come first: a caller that reads them after its
    /// transfer ended must not see it still in flight.
    private func deliver(_ finished: [Finished]) {
        if let gauges = state.withLock({ $0.ended(finished.map(\.id)) }) {
            metrics.inFlight.record(gauges.inFlight)
            metrics.queued.record(gauges.queued)
        }
        complete(finished)
    }

    /// Takes a transfer off its multi handle (before its caller is answered).
    private func remove(
        _ transfer: CurlTransfer, events: CurlEventLoop, watchdog: inout CurlWatchdog, shards: inout CurlShardPicker,
        now: ContinuousClock.Instant
    ) {
        curl_multi_remove_handle(events.multis[transfer.shard], transfer.easy)
        events.forget(transfer.easy)
        watchdog.ended(transfer.id)
        shards.ended(transfer.shard, now: now)
    }

    /// The watchdog gave up on a transfer curl kept a second past its deadline: fail it as timed out.
    private func abandon(_ transfer: CurlTransfer, events: CurlEventLoop) -> Finished {
        metrics.watchdogFailed.increment()
        curl_multi_remove_handle(events.multis[transfer.shard], transfer.easy)
        events.forget(transfer.easy)
        logger.warning(
            "curl kept a transfer past its deadline; failed it as timed out",
            metadata: ["host": "\(transfer.host ?? "-")", "timeoutMs": "\(transfer.timeoutMs)"])
        return transfer.finish(code: Int(CURLE_OPERATION_TIMEDOUT.rawValue), metrics: metrics)
    }

    /// Answers the callers of finished transfers (outside the lock).
    private func complete(_ finished: [Finished]) {
        for item in finished {
            switch item.result {
            case .success(let response):
                metrics.completed.increment()
                item.continuation.resume(returning: response)
            case .failure(let error):
                metrics.failed(error)
                logger.debug(
                    "curl transfer failed",
                    metadata: [
                        "kind": "\(error.kind.rawValue)", "delivery": "\(error.delivery.rawValue)",
                        "host": "\(error.host ?? "-")", "curlCode": "\(error.curlCode ?? 0)",
                    ])
                item.continuation.resume(throwing: error)
            }
        }
    }
}
