import OpenSSLCrypto
import Tracing

/// Passgate's tracer: swift-distributed-tracing's API over its own ids, sampler and sink.
///
/// Injected, never installed with `InstrumentationSystem.bootstrap`: tests run many instances
/// in one process, each with its own sink. With tracing off there is no tracer at all, and the
/// request path checks for one before it does any tracing work. A class: every part of the request
/// path holds it, and a reference is cheaper to pass around than the sampler and sink's existential.
public final class PassgateTracer: Tracer {
    public typealias Span = PassgateSpan

    public let sampler: TraceSampler
    let sink: any SpanSink

    public init(sampler: TraceSampler, sink: any SpanSink) {
        self.sampler = sampler
        self.sink = sink
    }

    /// A span: the child of the span in `context`, else of the caller's `traceparent` read into
    /// it by ``extract(_:into:using:)`` (with the sampler's verdict), else the root of a new trace.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind, at instant: @autoclosure () -> Instant,
        function: String, file fileID: String, line: UInt
    ) -> PassgateSpan {
        let context = context()
        let identity: SpanIdentity, parentSpanId: UInt64?
        if let parent = context.spanIdentity {
            // A child of a span that is not recorded is never exported, and Passgate propagates no
            // context onwards: it keeps its parent's ids, and nothing random is drawn for it.
            let spanId = parent.sampled ? Self.randomWords(1)[0] : parent.spanId
            identity = SpanIdentity(traceId: parent.traceId, spanId: spanId, sampled: parent.sampled, traceState: parent.traceState)
            parentSpanId = parent.spanId
        } else if let remote = context.remoteParent {
            identity = SpanIdentity(
                traceId: remote.parent.traceId, spanId: Self.randomWords(1)[0],
                sampled: sampler.samples(remote.parent.traceId, parent: remote.parent), traceState: remote.traceState)
            parentSpanId = remote.parent.spanId
        } else {
            let words = Self.randomWords(3)
            let traceId = TraceID(high: words[0], low: words[1])
            identity = SpanIdentity(traceId: traceId, spanId: words[2], sampled: sampler.samples(traceId, parent: nil), traceState: nil)
            parentSpanId = nil
        }
        return PassgateSpan(
            name: operationName, identity: identity, parentSpanId: parentSpanId, kind: FinishedSpan.Kind(kind), context: context,
            start: instant().nanosecondsSinceEpoch, sink: sink)
    }

    /// Reads `traceparent` and `tracestate`; a malformed `traceparent` is ignored (a new trace starts).
    public func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let parent = TraceParent(header: extractor.extract(key: "traceparent", from: carrier)) else { return }
        context.remoteParent = RemoteParent(parent: parent, traceState: TraceParent.traceState(extractor.extract(key: "tracestate", from: carrier)))
    }

    /// Writes the span's `traceparent` (and the caller's `tracestate`) for a downstream call.
    public func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let identity = context.spanIdentity else { return }
        let parent = TraceParent(traceId: identity.traceId, spanId: identity.spanId, flags: identity.sampled ? 1 : 0)
        injector.inject(parent.header, forKey: "traceparent", into: &carrier)
        if let state = identity.traceState { injector.inject(state, forKey: "tracestate", into: &carrier) }
    }

    /// A request's server span when its trace is recorded; otherwise no span at all, only the
    /// trace id its log lines and audit record carry. The caller's sampled flag decides, else the
    /// sampler's verdict on the trace id (the caller's, or a new one). An unrecorded request
    /// creates no span object and binds no context, and ``childSpan(_:ofKind:)`` starts nothing
    /// below it: with tracing on, most requests are unrecorded, and building spans nobody exports
    /// cost them about 5 % of the process's CPU (bench/decisions/0022-tracing-exporter.md).
    func serverSpan(_ name: @autoclosure () -> String, remote: RemoteParent?) -> (span: PassgateSpan?, traceId: TraceID) {
        let traceId: TraceID, sampled: Bool
        if let remote {
            traceId = remote.parent.traceId
            sampled = sampler.samples(traceId, parent: remote.parent)
        } else {
            let words = Self.randomWords(2)
            traceId = TraceID(high: words[0], low: words[1])
            sampled = sampler.samples(traceId, parent: nil)
        }
        guard sampled else { return (nil, traceId) }
        let identity = SpanIdentity(traceId: traceId, spanId: Self.randomWords(1)[0], sampled: true, traceState: remote?.traceState)
        let span = PassgateSpan(
            name: name(), identity: identity, parentSpanId: remote?.parent.spanId, kind: .server, context: .topLevel,
            start: DefaultTracerClock.now.nanosecondsSinceEpoch, sink: sink)
        return (span, traceId)
    }

    /// A child of the task's current span when that span is recorded; nil when there is none or
    /// it is not recorded (see ``serverSpan(_:remote:)``), so the caller sets no attribute either.
    func childSpan(_ name: @autoclosure () -> String, ofKind kind: SpanKind = .internal) -> PassgateSpan? {
        guard let current = ServiceContext.current, current.spanIdentity?.sampled == true else { return nil }
        return startSpan(name(), context: current, ofKind: kind)
    }

    /// The exporter flushes on its own schedule and at shutdown.
    public func forceFlush() {}

    /// `count` random words, none zero (an all-zero id is invalid), from OpenSSL's generator in one
    /// call in user space, where `SystemRandomNumberGenerator` asks the kernel once per word on Linux.
    static func randomWords(_ count: Int) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: count)
        while words.contains(0) {
            guard let bytes = try? SecureRandom.bytes(count: 8 * count) else {
                var generator = SystemRandomNumberGenerator()
                return words.map { $0 != 0 ? $0 : (generator.next() as UInt64) | 1 }
            }
            for index in words.indices where words[index] == 0 {
                words[index] = bytes[(8 * index)..<(8 * index + 8)].reduce(0) { $0 << 8 | UInt64($1) }
            }
        }
        return words
    }
}

extension FinishedSpan.Kind {
    init(_ kind: SpanKind) {
        switch kind {
        case .server: self = .server
        case .client: self = .client
        default: self = .internal
        }
    }
}
