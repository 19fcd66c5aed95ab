import CCurl
import CoreMetrics
import Logging
import Synchronization

extension CurlEngine {
    /// What the engine thread takes from the shared state in one locked step.
    struct Work {
        var admitted: [Submission] = []
        var cancelled: [UInt64] = []
        /// Queued requests still waiting when the shutdown deadline passed.
        var expired: [Submission] = []
        /// The shutdown deadline passed: fail every transfer still on the multi handle.
        var abortActive = false
        var exit = false
        var queuedCount = 0
        var pollTimeoutMs: Int32 = 1_000
    }

    /// A finished call, resumed outside the lock.
    struct Finished {
        let id: UInt64
        let continuation: CheckedContinuation<CurlHTTPClient.Response, any Error>
        let result: Result<CurlHTTPClient.Response, CurlTransportError>
    }

    /// The engine thread's body: admit, cancel and expire under the lock, let curl work
    /// (``CurlEventLoop/turn(maxWaitMs:)``), collect finished transfers with
    /// `curl_multi_info_read`, answer their callers; until a shutdown has drained everything.
    func runLoop() {
        guard let multi, let events else { return }
        var active: [UInt64: CurlTransfer] = [:]
        var reported = (inFlight: -1, queued: -1)
        var waitMs: Int32 = 0
        let watching = events.mode != .polling
        var nextWatch = ContinuousClock.now + Self.watchdogInterval
        while true {
            let work = takeWork()
            var finished: [Finished] = []
            for submission in work.admitted {
                switch CurlTransfer.make(submission, configuration: configuration, handles: handles) {
                case .success(let transfer):
                    if curl_multi_add_handle(multi, transfer.easy) == CURLM_OK {
                        active[submission.id] = transfer
                        metrics.started.increment()
                    } else {
                        finished.append(transfer.finish(code: Int(CURLE_OUT_OF_MEMORY.rawValue), metrics: metrics))
                    }
                case .failure(let error):
                    finished.append(Finished(id: submission.id, continuation: submission.continuation, result: .failure(error)))
                }
            }
            for id in work.cancelled {
                guard let transfer = active.removeValue(forKey: id) else { continue }
                curl_multi_remove_handle(multi, transfer.easy)
                events.forget(transfer.easy)
                finished.append(transfer.finishCancelled(metrics: metrics))
            }
            if work.abortActive {
                for transfer in active.values {
                    curl_multi_remove_handle(multi, transfer.easy)
                    events.forget(transfer.easy)
                    finished.append(transfer.finishShutdown(metrics: metrics))
                }
                active.removeAll()
            }
            for submission in work.expired {
                let error = CurlTransportError.shutdown(host: submission.request.host, facts: nil)
                metrics.failed(error)
                submission.continuation.resume(throwing: error)
            }
            if !work.exit {
                // The wait happens here, after admission, so new transfers start in this same turn
                // (adding a handle sets curl's timer to "now").
                var maxWaitMs = work.admitted.isEmpty && work.cancelled.isEmpty ? min(waitMs, work.pollTimeoutMs) : 0
                if watching && !active.isEmpty { maxWaitMs = min(maxWaitMs, Int32(Self.watchdogInterval / .milliseconds(1))) }
                events.turn(maxWaitMs: maxWaitMs)
                if watching && !active.isEmpty && ContinuousClock.now >= nextWatch {
                    nextWatch = ContinuousClock.now + Self.watchdogInterval
                    watchOverdue(&active, events: events, into: &finished)
                }
                var easy: UnsafeMutableRawPointer?
                var code = CURLE_OK
                while CCurl_multi_next_done(multi, &easy, &code) == 1 {
                    guard let done = easy, let transfer = CurlTransfer.owner(of: done),
                        active.removeValue(forKey: transfer.id) != nil
                    else { continue }
                    curl_multi_remove_handle(multi, done)
                    events.forget(done)
                    finished.append(transfer.finish(code: Int(code.rawValue), metrics: metrics))
                }
            }
            // The gauges before the callers resume: a caller that reads them after its transfer
            // ended must not see it still in flight.
            if reported != (active.count, work.queuedCount) {
                reported = (active.count, work.queuedCount)
                metrics.inFlight.record(active.count)
                metrics.queued.record(work.queuedCount)
            }
            complete(finished)
            if work.exit { break }
            // Slots just freed up and requests are waiting: admit them without sleeping first.
            waitMs = !finished.isEmpty && work.queuedCount > 0 ? 0 : work.pollTimeoutMs
        }
        metrics.inFlight.record(0)
        metrics.queued.record(0)
        active.removeAll()
        handles.close()
        curl_multi_cleanup(multi)
        events.close()
        logger.debug("curl engine stopped", metadata: ["thread": "\(threadName)"])
        let waiters = state.withLock { state in
            state.exited = true
            defer { state.stopWaiters.removeAll() }
            return state.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func takeWork() -> Work {
        let cap = max(1, configuration.maxConcurrentTransfers)
        return state.withLock { state in
            var work = Work()
            var draining = false
            if case .draining(let deadline) = state.lifecycle {
                draining = true
                let now = ContinuousClock.now
                if now >= deadline {
                    work.abortActive = true
                    work.expired = state.queue.removeAll()
                    for submission in work.expired { state.phases[submission.id] = nil }
                } else {
                    let left = (deadline - now).components
                    let leftMs = left.seconds * 1_000 + left.attoseconds / 1_000_000_000_000_000 + 1
                    work.pollTimeoutMs = Int32(min(Int64(work.pollTimeoutMs), leftMs))
                }
            }
            while !work.abortActive, state.activeCount < cap, let next = state.queue.popFirst() {
                state.phases[next.id] = .active
                state.activeCount += 1
                work.admitted.append(next)
            }
            work.cancelled = state.cancelRequests
            state.cancelRequests.removeAll()
            work.queuedCount = state.queue.count
            if draining && state.queue.isEmpty && (state.activeCount == 0 || work.abortActive) {
                work.exit = true
                state.lifecycle = .stopped
            }
            return work
        }
    }

    /// Forgets finished ids under the lock (so a late cancel finds nothing), then resumes callers.
    private func complete(_ finished: [Finished]) {
        guard !finished.isEmpty else { return }
        state.withLock { state in
            for item in finished { state.phases[item.id] = nil }
            state.activeCount -= finished.count
        }
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
