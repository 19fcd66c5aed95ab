/// `audit:` - the append-only log of carrier calls, one JSON line each, for reconciling with the
/// carrier's bill (`passgate usage`).
public struct AuditSettings: Sendable, Equatable {
    public var enabled = true
    /// The current file (absolute once loaded); rotated files are kept beside it.
    public var path = ".passgate/audit/audit.jsonl"
    /// A file is rotated before a line would take it past this size.
    public var maxFileBytes = 64 << 20
    /// How often appended lines are fsynced; 0 fsyncs after every write.
    public var fsyncIntervalMs = 1000

    /// The directory holding the current and the rotated files.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public init() {}
}
