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
    /// The longest a line waits in memory to share a `write` with others, under load; 0 writes
    /// (and wakes the writer thread for) each line as it comes.
    public var writeDelayMs = 5
    /// Rotated files kept besides the current one; older ones are deleted. 0 keeps every one.
    /// The default keeps (10 + 1) × 64 MiB = 704 MiB at most, inside the shipped 1 GiB volume.
    public var maxFiles = 10
    /// Rotated files whose rotation (the stamp in their name) is more than this many days ago are
    /// deleted. 0, the default, is no age limit.
    public var maxAgeDays = 0

    /// The directory holding the current and the rotated files.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The most the current file and the kept rotated files take on disk, `(maxFiles + 1) ×
    /// maxFileBytes`; `nil` when `maxFiles` is 0 (no count limit).
    public var maxRetainedBytes: Int? {
        guard maxFiles > 0 else { return nil }
        let (product, overflow) = (maxFiles + 1).multipliedReportingOverflow(by: maxFileBytes)
        return overflow ? Int.max : product
    }

    public init() {}
}
