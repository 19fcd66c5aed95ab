/// Where the server hands each carrier call's record.
///
/// Called on the request path right after every carrier call, so a conformance must return at
/// once: no disk I/O, no waiting on a lock held across I/O, never an `await`.
public protocol AuditSink: Sendable {
    /// Takes `record` for writing. Never fails for the caller: a conformance that cannot keep a
    /// record reports that through its own logs, metrics and health.
    func record(_ record: AuditRecord)
}

/// The sink for `audit.enabled: false`: keeps nothing.
public struct NoAuditSink: AuditSink {
    public init() {}

    public func record(_ record: AuditRecord) {}
}
