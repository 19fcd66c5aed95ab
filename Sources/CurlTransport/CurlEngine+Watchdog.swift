import CCurl
import CoreMetrics
import Logging

extension CurlEngine {
    /// How often the socket loop looks for transfers past their deadline.
    static let watchdogInterval: Duration = .milliseconds(250)
    /// Past its deadline by this much, curl is asked to look at a transfer again.
    static let watchdogNudgeAfter: Duration = .milliseconds(100)
    /// Past its deadline by this much, the engine fails the transfer as timed out itself.
    static let watchdogAbandonAfter: Duration = .seconds(1)

    /// The socket loop runs a transfer only on its socket's events and on curl's timer. With
    /// libcurl 7.88 the timer for a transfer's overall timeout can fire, run the transfer without
    /// ending it, and leave no timer behind (the timer callback says -1); a transfer to a server
    /// that never answers then waits forever. Seen in about one run in ten of the no-answer
    /// fail-over test (OneTimeTokenTests); the portable loop never had it, because
    /// `curl_multi_perform` checks every transfer's timeout on every turn.
    ///
    /// So, every ``watchdogInterval``: a transfer past its deadline by ``watchdogNudgeAfter`` gets
    /// a socket action without events on the socket curl last named for it. That runs its state
    /// machine, whose first step is the timeout check, so curl ends it with its own error (what
    /// the test run showed). One still running ``watchdogAbandonAfter`` past its deadline is taken
    /// off the multi handle and failed here as `CURLE_OPERATION_TIMEDOUT`, with a warning. Costs
    /// one pass over the transfers in flight per interval.
    func watchOverdue(_ active: inout [UInt64: CurlTransfer], events: CurlEventLoop, into finished: inout [Finished]) {
        guard let multi else { return }
        let now = ContinuousClock.now
        var abandoned: [CurlTransfer] = []
        for transfer in active.values where now > transfer.deadline + Self.watchdogNudgeAfter {
            if now > transfer.deadline + Self.watchdogAbandonAfter {
                abandoned.append(transfer)
            } else {
                if events.nudge(transfer.easy) { metrics.watchdogNudged.increment() }
            }
        }
        for transfer in abandoned {
            active.removeValue(forKey: transfer.id)
            metrics.watchdogFailed.increment()
            curl_multi_remove_handle(multi, transfer.easy)
            events.forget(transfer.easy)
            logger.warning(
                "curl kept a transfer past its deadline; failed it as timed out",
                metadata: ["host": "\(transfer.host ?? "-")", "timeoutMs": "\(transfer.timeoutMs)"])
            finished.append(transfer.finish(code: Int(CURLE_OPERATION_TIMEDOUT.rawValue), metrics: metrics))
        }
    }
}

extension CurlTransfer {
    /// When curl should have ended this transfer (`CURLOPT_TIMEOUT_MS` from when it was admitted).
    var deadline: ContinuousClock.Instant { startedAt + .milliseconds(timeoutMs + watchdogShiftMs) }
}

