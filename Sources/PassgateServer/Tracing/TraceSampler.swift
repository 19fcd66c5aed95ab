/// Parent-based sampling with a ratio: a caller that recorded its span gets Passgate's spans
/// too; otherwise the trace id decides, so every instance (and every service using the same
/// rule) decides alike for one trace.
public struct TraceSampler: Sendable, Equatable {
    /// The share of traces without a sampled parent that are recorded, 0...1.
    public let ratio: Double
    /// Trace ids whose low 56 bits (the random part, W3C Trace Context level 2) are below this are kept.
    private let threshold: UInt64

    public init(ratio: Double) {
        self.ratio = min(max(ratio, 0), 1)
        threshold = UInt64((self.ratio * 72_057_594_037_927_936).rounded(.down))  // 2^56
    }

    /// Whether the trace `traceId`, continued from `parent` when there is one, is recorded.
    public func samples(_ traceId: TraceID, parent: TraceParent?) -> Bool {
        if parent?.sampled == true { return true }
        return traceId.low & 0x00FF_FFFF_FFFF_FFFF < threshold
    }
}
