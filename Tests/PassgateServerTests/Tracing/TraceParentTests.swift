import Synchronization
import Testing
import Tracing

@testable import PassgateServer

/// `traceparent` and `tracestate` as W3C Trace Context reads them: anything malformed is no parent.
@Suite("tracing: traceparent parsing")
struct TraceParentTests {
    static let valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test("a valid header gives its trace id, parent span id and sampled flag, and writes back the same")
    func valid() throws {
        let parent = try #require(TraceParent(header: Self.valid))
        #expect(parent.traceId == TraceID(high: 0x4bf9_2f35_77b3_4da6, low: 0xa3ce_929d_0e0e_4736))
        #expect(parent.traceId.hex == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(parent.spanId == 0x00f0_67aa_0ba9_02b7)
        #expect(parent.sampled)
        #expect(parent.header == Self.valid)
        #expect(TraceParent(header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.sampled == false)
    }

    @Test("malformed headers are no parent (a new trace starts), never an error", arguments: [
        "",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // uppercase hex
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // zero parent id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // version ff
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",  // version 00 has exactly four fields
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",  // short trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",  // short flags
        "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",  // wrong separators
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",  // not hex
        "0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",  // a later version's extra field needs a dash
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01, 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // two headers
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\u{0}",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-é",
    ])
    func malformed(header: String) {
        #expect(TraceParent(header: header) == nil)
    }

    @Test("absent is no parent")
    func absent() {
        #expect(TraceParent(header: nil) == nil)
    }

    @Test("a later version is read by its first four fields, with or without more after a dash")
    func laterVersion() throws {
        let parent = try #require(TraceParent(header: "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future-holds"))
        #expect(parent.traceId.hex == "4bf92f3577b34da6a3ce929d0e0e4736" && parent.sampled)
        #expect(TraceParent(header: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09")?.sampled == true)
    }

    @Test("tracestate is passed on when within the W3C limits, dropped otherwise")
    func traceState() {
        #expect(TraceParent.traceState("congo=t61rcWkgMzE,rojo=00f067aa0ba902b7") == "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7")
        #expect(TraceParent.traceState(nil) == nil)
        #expect(TraceParent.traceState("") == nil)
        #expect(TraceParent.traceState(String(repeating: "a", count: 513)) == nil)
        #expect(TraceParent.traceState((0..<33).map { "k\($0)=v" }.joined(separator: ",")) == nil)
        #expect(TraceParent.traceState("a=b\nc=d") == nil)
    }
}

/// Parent-based sampling with a ratio over the trace id's random low 56 bits.
@Suite("tracing: sampler")
struct TraceSamplerTests {
    static let parent = TraceParent(header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")!

    @Test("a sampled parent is honoured whatever the ratio")
    func sampledParent() {
        #expect(TraceSampler(ratio: 0).samples(Self.parent.traceId, parent: Self.parent))
    }

    @Test("without a sampled parent the trace id decides: below ratio × 2^56 of its low 56 bits is kept")
    func ratio() {
        let half = TraceSampler(ratio: 0.5)
        #expect(half.samples(TraceID(high: 1, low: 0x007F_FFFF_FFFF_FFFF), parent: nil))
        #expect(!half.samples(TraceID(high: 1, low: 0x0080_0000_0000_0000), parent: nil))
        // The top byte of the low half is not part of the random bits: it does not change the verdict.
        #expect(half.samples(TraceID(high: 1, low: 0xFF7F_FFFF_FFFF_FFFF), parent: nil))
        var unsampled = Self.parent
        unsampled.flags = 0
        #expect(!half.samples(TraceID(high: 1, low: 0x0080_0000_0000_0000), parent: unsampled))
        #expect(half.samples(TraceID(high: 1, low: 0), parent: unsampled))
    }

    @Test("ratio 0 keeps nothing, ratio 1 everything; a ratio outside 0-1 is clamped")
    func bounds() {
        let ids = [TraceID(high: 0, low: 1), TraceID(high: 9, low: 0x00FF_FFFF_FFFF_FFFF), TraceID(high: 3, low: 0x0012_3456_789A_BCDE)]
        #expect(ids.allSatisfy { TraceSampler(ratio: 1).samples($0, parent: nil) })
        #expect(ids.allSatisfy { !TraceSampler(ratio: 0).samples($0, parent: nil) })
        #expect(TraceSampler(ratio: 7).ratio == 1 && TraceSampler(ratio: -1).ratio == 0)
    }

    @Test("two instances with the same ratio decide alike for one trace")
    func instancesAgree() {
        for _ in 0..<100 {
            let words = PassgateTracer.randomWords(2)
            let id = TraceID(high: words[0], low: words[1])
            #expect(TraceSampler(ratio: 0.1).samples(id, parent: nil) == TraceSampler(ratio: 0.1).samples(id, parent: nil))
        }
    }
}

/// The tracer's ids and verdicts, through swift-distributed-tracing's API.
@Suite("tracing: tracer")
struct PassgateTracerTests {
    final class Sink: SpanSink {
        let count = Mutex(0)
        func finished(_ span: FinishedSpan) { count.withLock { $0 += 1 } }
    }

    @Test("a caller's unsampled trace at ratio 0 is continued, not recorded: children keep its ids and nothing is exported")
    func unsampledChildren() throws {
        let sink = Sink()
        let tracer = PassgateTracer(sampler: TraceSampler(ratio: 0), sink: sink)
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"], into: &context, using: DictionaryExtractor())
        let server = tracer.startSpan("server", context: context, ofKind: .server)
        let child = tracer.startSpan("child", context: server.context)
        #expect(!server.isRecording && !child.isRecording)
        #expect(server.traceId == "4bf92f3577b34da6a3ce929d0e0e4736" && child.traceId == server.traceId)
        child.end()
        server.end()
        #expect(sink.count.withLock { $0 } == 0)
    }

    @Test("an unrecorded request builds no span: only its trace id (the caller's, or a new non-zero one), and no child starts")
    func unrecordedServerSpan() throws {
        let sink = Sink()
        let tracer = PassgateTracer(sampler: TraceSampler(ratio: 0), sink: sink)
        let parent = try #require(TraceParent(header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"))
        let (span, traceId) = tracer.serverSpan("POST /v1/phone-number", remote: RemoteParent(parent: parent, traceState: nil))
        #expect(span == nil && traceId.hex == "4bf92f3577b34da6a3ce929d0e0e4736")
        let (fresh, freshId) = tracer.serverSpan("POST /v1/phone-number", remote: nil)
        #expect(fresh == nil && freshId != TraceID(high: 0, low: 0))
        #expect(tracer.childSpan("claim") == nil, "no current span: nothing to be the child of")
        #expect(sink.count.withLock { $0 } == 0)
    }

    @Test("a sampled caller's request gets a server span under it even at ratio 0; children start only below it")
    func recordedServerSpan() throws {
        let sink = Sink()
        let tracer = PassgateTracer(sampler: TraceSampler(ratio: 0), sink: sink)
        let parent = try #require(TraceParent(header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
        let (span, traceId) = tracer.serverSpan("POST /v1/phone-number", remote: RemoteParent(parent: parent, traceState: "vendor=1"))
        let server = try #require(span)
        #expect(server.isRecording && traceId == server.identity.traceId && server.identity.traceState == "vendor=1")
        let child = ServiceContext.$current.withValue(server.context) { tracer.childSpan("claim") }
        #expect(child?.isRecording == true && child?.traceId == server.traceId)
        child?.end()
        server.end()
        #expect(sink.count.withLock { $0 } == 2)
    }

    @Test("a new trace at ratio 1: fresh non-zero ids, the child under the root, both exported once")
    func sampledChildren() {
        let sink = Sink()
        let tracer = PassgateTracer(sampler: TraceSampler(ratio: 1), sink: sink)
        let root = tracer.startSpan("root", context: .topLevel, ofKind: .server)
        let child = tracer.startSpan("child", context: root.context)
        #expect(root.isRecording && child.isRecording && child.traceId == root.traceId)
        #expect(root.identity.spanId != 0 && child.identity.spanId != root.identity.spanId)
        child.end()
        child.end()
        root.end()
        #expect(sink.count.withLock { $0 } == 2, "a span ended twice is exported once")
    }

    struct DictionaryExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }
}
