import Testing

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
            let id = TraceID.random()
            #expect(TraceSampler(ratio: 0.1).samples(id, parent: nil) == TraceSampler(ratio: 0.1).samples(id, parent: nil))
        }
    }
}
