import PassgateConsole
import Testing

/// The pages escape what they are given: a provider's message, a path or a subject with markup
/// in it is text on the page, never markup.
@Suite("console pages")
struct ConsolePagesTests {
    static let layout = ConsoleLayout(navigation: [.init(title: "Overview", path: "/console")])
    static let hostile = "<script>alert(1)</script>"

    @Test("the overview writes provider, app, code and meaning as text")
    func overviewEscapes() {
        var counts = TrafficWindow.Counts()
        var window = TrafficWindow()
        let key = TrafficWindow.Key(provider: "p\(Self.hostile)", appId: "a\(Self.hostile)")
        let code = TrafficWindow.Code(normalized: "carrier_error", raw: Self.hostile)
        window.record(.init(key: key, code: code, latencyMs: 12, explanation: .init(message: Self.hostile, action: "retry")), nowMs: 0)
        counts = window.summary(lastMinutes: 5, nowMs: 0)[key] ?? counts
        let recorded = window
        let page = OverviewPage(
            ready: true, checks: [("state", Self.hostile)], lastFive: [key: counts], lastHour: [key: counts],
            circuits: [.init(provider: "p", url: Self.hostile, state: "open")], callCaps: [.init(provider: "p", inFlight: 1, limit: 2, waiting: 0)],
            explain: { recorded.explanation(provider: $0, code: $1) }
        ).render(layout: Self.layout, csrf: "c").rendered
        #expect(!page.contains("<script>") && page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("open: calls paused, failing fast") && page.contains("50.0 %"))
    }

    @Test("the configuration page writes secrets' paths and sources, sections and the reload report as text")
    func configurationEscapes() {
        let page = ConfigurationPage(
            generation: 2, sections: [.init(title: "server", rows: [.init("host", Self.hostile)])],
            secrets: [.init(path: "apps[0].secret", owner: Self.hostile, source: "file:/run/\(Self.hostile)", fingerprint: "0011223344556677")],
            certificates: [.init(provider: "cmcc", file: "/ca.pem", problem: Self.hostile)],
            reload: .rejected(message: Self.hostile)
        ).render(layout: Self.layout, csrf: "c").rendered
        #expect(!page.contains("<script>"))
        #expect(page.contains("<h2 id=\"reload-report\">Reload rejected</h2>") && page.contains("unreadable: &lt;script&gt;"))
        #expect(page.contains("<input type=\"hidden\" name=\"csrf\" value=\"c\">"), "the reload form carries the token")
    }
}
