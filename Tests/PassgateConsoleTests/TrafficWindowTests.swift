import PassgateConsole
import Testing

@Suite("traffic window")
struct TrafficWindowTests {
    static let key = TrafficWindow.Key(provider: "cmcc", appId: "300011111111")

    static func call(_ code: String, raw: String? = nil, latencyMs: Double = 100, key: TrafficWindow.Key = key) -> TrafficWindow.Call {
        TrafficWindow.Call(key: key, code: .init(normalized: code, raw: raw), latencyMs: latencyMs,
                           explanation: code == "ok" ? nil : .init(message: "meaning of \(code)", action: "new_token"))
    }

    @Test("calls, successes and codes add up per key over the last minutes asked for")
    func counts() {
        var window = TrafficWindow()
        window.record(Self.call("ok"), nowMs: 0)
        window.record(Self.call("ok"), nowMs: 30_000)
        window.record(Self.call("token_invalid", raw: "103113"), nowMs: 59_999)
        window.record(Self.call("ok", key: .init(provider: "cmcc", appId: "other")), nowMs: 1_000)
        let counts = window.summary(lastMinutes: 5, nowMs: 60_000)[Self.key]
        #expect(counts?.calls == 3 && counts?.successes == 2)
        #expect(counts?.codes[.init(normalized: "token_invalid", raw: "103113")] == 1)
        #expect(window.summary(lastMinutes: 5, nowMs: 60_000).count == 2)
    }

    @Test("a minute leaves the 5-minute window after 5 minutes and the 60-minute one after 60; its slot is reused")
    func windowsSlide() {
        var window = TrafficWindow()
        window.record(Self.call("ok"), nowMs: 0)
        #expect(window.summary(lastMinutes: 5, nowMs: 4 * 60_000 + 59_999)[Self.key]?.calls == 1)
        #expect(window.summary(lastMinutes: 5, nowMs: 5 * 60_000)[Self.key] == nil)
        #expect(window.summary(lastMinutes: 60, nowMs: 59 * 60_000)[Self.key]?.calls == 1)
        #expect(window.summary(lastMinutes: 60, nowMs: 60 * 60_000)[Self.key] == nil)
        window.record(Self.call("ok"), nowMs: 60 * 60_000 + 1)  // the same slot, an hour later
        #expect(window.summary(lastMinutes: 60, nowMs: 60 * 60_000 + 2)[Self.key]?.calls == 1)
    }

    @Test("negative monotonic times (a clock made before the process's origin) are counted, not a crash")
    func negativeTimes() {
        var window = TrafficWindow()
        window.record(Self.call("ok"), nowMs: -1)
        window.record(Self.call("ok"), nowMs: -61_000)
        #expect(window.summary(lastMinutes: 5, nowMs: 0)[Self.key]?.calls == 2)
        #expect(window.summary(lastMinutes: 1, nowMs: -1)[Self.key]?.calls == 1)
    }

    @Test("a failure's explanation is kept per provider and code while a minute of the hour still counts it")
    func explanations() {
        var window = TrafficWindow()
        window.record(Self.call("token_invalid", raw: "103113"), nowMs: 0)
        let code = TrafficWindow.Code(normalized: "token_invalid", raw: "103113")
        #expect(window.explanation(provider: "cmcc", code: code)?.message == "meaning of token_invalid")
        #expect(window.explanation(provider: "shanyan", code: code) == nil)
        window.record(Self.call("ok"), nowMs: 120 * 60_000)  // slot 0 again, two hours on: the old code is gone
        #expect(window.explanation(provider: "cmcc", code: code) == nil)
    }

    @Test("percentiles come from the histogram within a bucket's width (25 %)")
    func percentiles() {
        var histogram = LatencyHistogram()
        for milliseconds in 1...100 { histogram.record(Double(milliseconds)) }
        let p50 = try! #require(histogram.percentile(0.5)), p99 = try! #require(histogram.percentile(0.99))
        #expect(p50 >= 50 && p50 < 50 * 1.25, "\(p50)")
        #expect(p99 >= 99 && p99 < 99 * 1.25, "\(p99)")
        #expect(LatencyHistogram().percentile(0.5) == nil)
        histogram.record(1_000_000)
        #expect(histogram.percentile(1.0) == LatencyHistogram.bounds.last)
    }

    @Test("the console writes ratios and latencies without Foundation")
    func formatting() {
        #expect(ConsoleFormat.percent(0.985) == "98.5 %" && ConsoleFormat.percent(1) == "100.0 %" && ConsoleFormat.percent(0) == "0.0 %")
        #expect(ConsoleFormat.latency(nil) == "-" && ConsoleFormat.latency(1.25) == "≤ 1.3 ms" && ConsoleFormat.latency(119.2) == "≤ 120 ms")
    }
}
