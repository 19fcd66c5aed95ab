import PassgateCore
/// Retention on the writer thread: when a pass runs (see `AuditRetention` for what it deletes).
extension AuditWriterLoop {
    /// Deletes the rotated files beyond `maxFiles` or older than `maxAgeDays`; failures are
    /// logged and counted there and never stop writing.
    func enforceRetention(_ trigger: AuditRetention.Trigger) {
        guard retention.isLimited else { return }
        let now = parts.clock.nowMilliseconds()
        lastRetention = (monotonicNanoseconds(), now)
        retention.enforce(nowMilliseconds: now, trigger: trigger, logger: parts.logger, metrics: parts.metrics)
    }

    /// With an age limit, an hour after the last pass by either clock: the monotonic one wakes an
    /// idle thread, the wall one also sees time the monotonic clock skips (a suspended VM) and
    /// steps back (then the files' ages are wrong until the next pass).
    var ageCheckIsDue: Bool {
        guard retention.maxAgeDays > 0 else { return false }
        let wall = parts.clock.nowMilliseconds()
        let hour = Self.ageCheckNanoseconds / 1_000_000
        return monotonicNanoseconds() >= lastRetention.monotonic + Self.ageCheckNanoseconds
            || wall >= lastRetention.wall + hour || wall < lastRetention.wall
    }
}
