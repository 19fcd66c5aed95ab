import Synchronization
import Tracing

/// A span of ``PassgateTracer``. One that is not sampled records nothing and is never exported,
/// but still carries its ids, so the trace id reaches log lines and children either way.
public final class PassgateSpan: Span {
    private struct State {
        var name: String
        var attributes: SpanAttributes = [:]
        var status: SpanStatus?
        var ended = false
    }

    public let context: ServiceContext
    public let isRecording: Bool
    let identity: SpanIdentity
    private let parentSpanId: UInt64?
    private let kind: FinishedSpan.Kind
    private let start: UInt64
    private let sink: any SpanSink
    // `Mutex`: the Span protocol's setters are nonmutating and a span may be ended from another task.
    private let state: Mutex<State>

    init(
        name: String, identity: SpanIdentity, parentSpanId: UInt64?, kind: FinishedSpan.Kind, context: ServiceContext, start: UInt64,
        sink: any SpanSink
    ) {
        self.identity = identity
        self.parentSpanId = parentSpanId
        self.kind = kind
        self.start = start
        self.sink = sink
        isRecording = identity.sampled
        // A write copies the context's storage: a child that shares its parent's ids (one not
        // recorded) keeps the parent's context as it is. A caller's parent left in the context
        // is never read again: the span identity comes first.
        if context.spanIdentity == identity {
            self.context = context
        } else {
            var context = context
            context.spanIdentity = identity
            self.context = context
        }
        state = Mutex(State(name: name))
    }

    /// The trace id as log lines and the audit record write it.
    public var traceId: String { identity.traceId.hex }

    public var operationName: String {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }

    public var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set {
            guard isRecording else { return }
            state.withLock { $0.attributes = newValue }
        }
    }

    public func setStatus(_ status: SpanStatus) {
        guard isRecording else { return }
        state.withLock { $0.status = status }
    }

    /// Events and links are not exported by Passgate's exporter; it adds none itself.
    public func addEvent(_ event: SpanEvent) {}

    public func addLink(_ link: SpanLink) {}

    /// Records only that the span failed and the error's type: an error's description may quote
    /// a carrier's reply, which must not leave the process.
    public func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {
        setStatus(SpanStatus(code: .error, message: String(describing: type(of: error))))
    }

    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let finished: State? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return state
        }
        guard isRecording, let finished else { return }
        var attributes: [(key: String, value: FinishedSpan.Value)] = []
        finished.attributes.forEach { key, value in attributes.append((key, FinishedSpan.Value(value))) }
        sink.finished(FinishedSpan(
            traceId: identity.traceId, spanId: identity.spanId, parentSpanId: parentSpanId, traceState: identity.traceState,
            name: finished.name, kind: kind, startNanoseconds: start, endNanoseconds: instant().nanosecondsSinceEpoch,
            attributes: attributes, error: finished.status.map { ($0.code == .error, $0.message) }))
    }
}
