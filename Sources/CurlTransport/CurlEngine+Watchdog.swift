/// The socket loop's watchdog as a value: the deadlines of the transfers on the multi handle and
/// when the next sweep is due. The engine thread owns it (no lock) and performs what a sweep says.
///
/// The socket loop runs a transfer only on its socket's events and on curl's timer. With
/// libcurl 7.88 the timer for a transfer's overall timeout can fire, run the transfer without
/// ending it, and leave no timer behind (the timer callback says -1); a transfer to a server
/// that never answers then waits forever. Seen in about one run in ten of the no-answer
/// fail-over test (OneTimeTokenTests); the portable loop never had it, because
/// `curl_multi_perform` checks every transfer's timeout on every turn, so there the watchdog is
/// off.
///
/// So, every ``interval`` while transfers run: a transfer past its deadline by ``nudgeAfter`` is
/// nudged (a socket action without events on the socket curl last named for it, which runs its
/// state machine, whose first step is the timeout check, so curl ends it with its own error). One
/// still running ``abandonAfter`` past its deadline is abandoned: the engine takes it off the
/// multi handle and fails it as `CURLE_OPERATION_TIMEDOUT`, with a warning. A sweep costs one pass
/// over the transfers in flight.
struct CurlWatchdog {
    /// How often the socket loop looks for transfers past their deadline.
    static let interval: Duration = .milliseconds(250)
    /// Past its deadline by this much, curl is asked to look at a transfer again.
    static let nudgeAfter: Duration = .milliseconds(100)
    /// Past its deadline by this much, the engine fails the transfer as timed out itself.
    static let abandonAfter: Duration = .seconds(1)

    /// What a sweep found, ids in ascending order.
    struct Sweep: Equatable {
        var nudge: [UInt64] = []
        /// Already forgotten here; the engine fails them.
        var abandon: [UInt64] = []
    }

    /// Off for the portable loop.
    let isEnabled: Bool
    private var deadlines: [UInt64: ContinuousClock.Instant] = [:]
    private var nextSweep: ContinuousClock.Instant

    init(enabled: Bool, now: ContinuousClock.Instant) {
        isEnabled = enabled
        nextSweep = now + Self.interval
    }

    /// Transfers watched.
    var watchedCount: Int { deadlines.count }

    /// A transfer went onto the multi handle; curl should end it by `deadline`.
    mutating func started(_ id: UInt64, deadline: ContinuousClock.Instant) {
        guard isEnabled else { return }
        deadlines[id] = deadline
    }

    /// A transfer left the multi handle.
    mutating func ended(_ id: UInt64) {
        deadlines[id] = nil
    }

    /// `waitMs`, capped at one ``interval`` while transfers are watched, so sweeps come on time.
    func maxWait(_ waitMs: Int32) -> Int32 {
        guard isEnabled, !deadlines.isEmpty else { return waitMs }
        return min(waitMs, Int32(Self.interval / .milliseconds(1)))
    }

    /// At `now`: nothing unless transfers are watched and a sweep is due; then the overdue ones.
    mutating func sweep(now: ContinuousClock.Instant) -> Sweep {
        guard isEnabled, !deadlines.isEmpty, now >= nextSweep else { return Sweep() }
        nextSweep = now + Self.interval
        var sweep = Sweep()
        for (id, deadline) in deadlines where now > deadline + Self.nudgeAfter {
            if now > deadline + Self.abandonAfter {
                sweep.abandon.append(id)
            } else {
                sweep.nudge.append(id)
            }
        }
        for id in sweep.abandon { deadlines[id] = nil }
        sweep.nudge.sort()
        sweep.abandon.sort()
        return sweep
    }
}

extension CurlTransfer {
    /// When curl should have ended this transfer (`CURLOPT_TIMEOUT_MS` from when it was admitted).
    var deadline: ContinuousClock.Instant { startedAt + .milliseconds(timeoutMs + watchdogShiftMs) }
}
