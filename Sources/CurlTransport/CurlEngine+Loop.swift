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
    /// and abort, and how long to wait; the thread performs that on the multi handle, lets curl
    /// work (``CurlEventLoop/turn(maxWaitMs:)``), runs the watchdog's sweep, collects finished
    /// transfers with `curl_multi_info_read`, reports them to the state machine, and answers their
    /// callers; until a turn says exit.
    func runLoop() {
        guard let events else { return }
        var active: [UInt64: CurlTransfer] = [:]
        var watchdog = CurlWatchdog(enabled: events.mode != .polling, now: .now)
        var shards = CurlShardPicker(shards: events.multis.count, capacity: configuration.transfersPerShard)
        // Past this age curl would not reuse an idle connection anyway (CURLOPT_MAXAGE_CONN).
        let idleShardAge = Duration.seconds(max(1, configuration.maxIdleConnectionSeconds))
        while true {
            let turnStart = ContinuousClock.now
            let turn = state.withLock { $0.nextTurn(now: turnStart) }
            var finished: [Finished] = []
            for (id, submission) in turn.admit {
                switch CurlTransfer.make(submission, configuration: configuration, handles: handles) {
                case .success(let transfer):
                    transfer.shard = shards.pick()
                    if curl_multi_add_handle(events.multis[transfer.shard], transfer.easy) == CURLM_OK {
                        active[id] = transfer
                        watchdog.started(id, deadline: transfer.deadline)
                        metrics.started.increment()
                    } else {
                        shards.ended(transfer.shard, now: turnStart)
                        finished.append(transfer.finish(code: Int(CURLE_OUT_OF_MEMORY.rawValue), metrics: metrics))
                    }
                case .failure(let error):
                    finished.append(Finished(id: id, continuation: submission.continuation, result: .failure(error)))
                }
            }
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
                events.turn(maxWaitMs: watchdog.maxWait(turn.maxWaitMs))
                let now = ContinuousClock.now
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
                var easy: UnsafeMutableRawPointer?
                var code = CURLE_OK
                // Only shards with transfers on them can have finished ones.
                for index in shards.busy {
                    while CCurl_multi_next_done(events.multis[index], &easy, &code) == 1 {
                        guard let done = easy, let transfer = CurlTransfer.owner(of: done),
                            active.removeValue(forKey: transfer.id) != nil
                        else { continue }
                        remove(transfer, events: events, watchdog: &watchdog, shards: &shards, now: now)
                        finished.append(transfer.finish(code: Int(code.rawValue), metrics: metrics))
                    }
                }
                for index in shards.shardsToRenew(now: now, idleFor: idleShardAge) where !events.renew(shard: index) {
                    logger.warning(
                        "curl_multi_init failed (out of memory?): an idle multi handle keeps its connections open until it runs transfers again",
                        metadata: ["shard": "\(index)"])
                }
            }
            // The gauges before the callers resume: a caller that reads them after its transfer
            // ended must not see it still in flight.
            if let gauges = state.withLock({ $0.turnEnded(finished: finished.map(\.id)) }) {
                metrics.inFlight.record(gauges.inFlight)
                metrics.queued.record(gauges.queued)
            }
            complete(finished)
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
