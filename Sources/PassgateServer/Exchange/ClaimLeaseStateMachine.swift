import NIOCore

/// The renewal of one claim's lease, as a value: it takes events (the renewal timer fired, a
/// renewal answered, the call is over) and says what to do; its owner (`ClaimLease`) keeps the
/// timer and talks to the store.
///
/// Renewing every third of the lease leaves two more tries before the lease lapses when the store
/// is slow or briefly unreachable. A failed renewal is tried again after half that interval, so a
/// short outage costs the lease nothing; the claim itself cannot be taken over while it lapses
/// (nobody takes another owner's claim), so renewing late only delays followers' answers.
struct ClaimLeaseStateMachine: Sendable {
    /// What a renewal's answer was.
    enum Renewal: Sendable, Equatable {
        /// The store extended the lease.
        case renewed
        /// The store no longer holds this owner's claim (released, or outlived the replay TTL).
        case lost
        /// The store could not be asked (unreachable, timeout).
        case failed
    }

    /// What to do after an event.
    enum Action: Sendable, Equatable {
        /// Ask the store to renew the lease now.
        case renew
        /// Fire the renewal timer at this point of the loop's time. A point, not a delay, reckoned
        /// from when the claim or renewal was sent: so a renewal is due a third of a lease after
        /// the one before it, however long the store took to answer.
        case schedule(NIODeadline)
        /// Nothing: stopped, or a renewal is already on its way.
        case none
    }

    private enum State: Sendable, Equatable {
        case waiting
        case renewing
        case stopped
    }

    let lease: TimeAmount
    /// A third of the lease.
    let interval: TimeAmount
    /// Until when the store holds the lease, as far as this owner knows: the send time of the last
    /// renewal it confirmed, plus the lease.
    private(set) var liveUntil: NIODeadline
    private var state = State.waiting

    /// - Parameter claimedAt: when the claim that took the lease was sent (not answered: the
    ///   store's lease started no earlier).
    init(lease: TimeAmount, claimedAt: NIODeadline) {
        self.lease = lease
        interval = .nanoseconds(max(1, lease.nanoseconds / 3))
        liveUntil = claimedAt + lease
    }

    /// The first action: arm the timer.
    var start: Action { .schedule(liveUntil - lease + interval) }

    /// Whether the lease is still held at `now`, as far as this owner knows.
    func isLive(at now: NIODeadline) -> Bool { now < liveUntil && state != .stopped }

    var isStopped: Bool { state == .stopped }

    /// The renewal timer fired.
    mutating func timerFired() -> Action {
        guard state == .waiting else { return .none }
        state = .renewing
        return .renew
    }

    /// A renewal sent at `sentAt` was answered.
    mutating func renewed(sentAt: NIODeadline, _ renewal: Renewal) -> Action {
        guard state == .renewing else { return .none }
        switch renewal {
        case .renewed:
            liveUntil = max(liveUntil, sentAt + lease)
            state = .waiting
            return .schedule(sentAt + interval)
        case .failed:
            state = .waiting
            return .schedule(sentAt + .nanoseconds(max(1, interval.nanoseconds / 2)))
        case .lost:
            state = .stopped
            return .none
        }
    }

    /// The call is over (its outcome settled or its claim released). `true` when a timer may be
    /// armed and must be cancelled.
    mutating func stop() -> Bool {
        guard state != .stopped else { return false }
        state = .stopped
        return true
    }
}
