/// The overview (`/console`): per provider and per app, the last 5 and 60 minutes of carrier
/// calls; each base URL's circuit; each provider's call cap; the most frequent result codes with
/// what they mean and what to do; and the instance's readiness checks.
public struct OverviewPage: Sendable {
    /// A provider's base URL and its circuit, as a word.
    public struct Circuit: Sendable, Equatable {
        public var provider: String
        public var url: String
        /// `closed`, `open` or `half-open`.
        public var state: String

        public init(provider: String, url: String, state: String) {
            self.provider = provider
            self.url = url
            self.state = state
        }
    }

    /// A provider's call cap now.
    public struct CallCap: Sendable, Equatable {
        public var provider: String
        public var inFlight: Int
        public var limit: Int
        public var waiting: Int

        public init(provider: String, inFlight: Int, limit: Int, waiting: Int) {
            self.provider = provider
            self.inFlight = inFlight
            self.limit = limit
            self.waiting = waiting
        }
    }

    public var ready: Bool
    public var checks: [(name: String, detail: String)]
    /// The last 5 and 60 minutes, per provider and app.
    public var lastFive: [TrafficWindow.Key: TrafficWindow.Counts]
    public var lastHour: [TrafficWindow.Key: TrafficWindow.Counts]
    public var circuits: [Circuit]
    public var callCaps: [CallCap]
    /// What a code means and what to do (`TrafficWindow.explanation`).
    public var explain: @Sendable (_ provider: String, _ code: TrafficWindow.Code) -> TrafficWindow.Explanation?
    /// How many result codes the table lists.
    public static let topCodes = 10
    public static let refreshSeconds = 30

    public init(
        ready: Bool, checks: [(name: String, detail: String)], lastFive: [TrafficWindow.Key: TrafficWindow.Counts],
        lastHour: [TrafficWindow.Key: TrafficWindow.Counts], circuits: [Circuit], callCaps: [CallCap],
        explain: @escaping @Sendable (String, TrafficWindow.Code) -> TrafficWindow.Explanation?
    ) {
        self.ready = ready
        self.checks = checks
        self.lastFive = lastFive
        self.lastHour = lastHour
        self.circuits = circuits
        self.callCaps = callCaps
        self.explain = explain
    }

    public func render(layout: ConsoleLayout, csrf: String) -> HTML {
        let byProvider = { (counts: [TrafficWindow.Key: TrafficWindow.Counts]) in Self.grouped(counts) { $0.provider } }
        let byApp = { (counts: [TrafficWindow.Key: TrafficWindow.Counts]) in Self.grouped(counts) { "\($0.provider) / \($0.appId)" } }
        let content: HTML = """
            <p>This instance is <strong>\(ready ? "ready" : "not ready")</strong> for traffic. Carrier calls of this instance only; \
            the page refreshes every \(Self.refreshSeconds) s.</p>
            <h2 id="providers">Calls per provider</h2>
            \(trafficTable(caption: "Calls per provider, last 5 and 60 minutes", column: "Provider", byProvider(lastFive), byProvider(lastHour)))
            <h2 id="apps">Calls per app</h2>
            \(trafficTable(caption: "Calls per app, last 5 and 60 minutes", column: "Provider / app", byApp(lastFive), byApp(lastHour)))
            <h2 id="codes">Top result codes, last 60 minutes</h2>
            \(codesTable())
            <h2 id="circuits">Circuits</h2>
            \(circuitsTable())
            <h2 id="caps">Call caps</h2>
            \(capsTable())
            <h2 id="readiness">Readiness</h2>
            \(readinessTable())
            """
        return layout.page(title: "Overview", path: "/console", csrf: csrf, refreshSeconds: Self.refreshSeconds, content: content)
    }

    static func grouped(_ counts: [TrafficWindow.Key: TrafficWindow.Counts], by label: (TrafficWindow.Key) -> String) -> [String: TrafficWindow.Counts] {
        var groups: [String: TrafficWindow.Counts] = [:]
        for (key, value) in counts { groups[label(key), default: TrafficWindow.Counts()].add(value) }
        return groups
    }

    private func trafficTable(caption: String, column: String, _ five: [String: TrafficWindow.Counts], _ hour: [String: TrafficWindow.Counts]) -> HTML {
        let labels = Set(five.keys).union(hour.keys).sorted()
        guard !labels.isEmpty else { return "<p class=\"muted\">No carrier calls in the last 60 minutes.</p>" }
        let rows = labels.map { label -> HTML in
            "<tr><th scope=\"row\">\(label)</th>\(Self.cells(five[label]))\(Self.cells(hour[label]))</tr>"
        }
        return """
            <div class="scroll"><table>
            <caption>\(caption)</caption>
            <thead><tr><th scope="col" rowspan="2">\(column)</th><th scope="colgroup" colspan="4">Last 5 minutes</th>\
            <th scope="colgroup" colspan="4">Last 60 minutes</th></tr>
            <tr><th scope="col">Calls</th><th scope="col">Success</th><th scope="col">p50</th><th scope="col">p99</th>\
            <th scope="col">Calls</th><th scope="col">Success</th><th scope="col">p50</th><th scope="col">p99</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table></div>
            """
    }

    private static func cells(_ counts: TrafficWindow.Counts?) -> HTML {
        guard let counts, counts.calls > 0 else { return "<td class=\"number\">0</td><td>-</td><td>-</td><td>-</td>" }
        let ratio = counts.successRatio ?? 0
        let status = ratio >= 0.99 ? "status-good" : ratio >= 0.9 ? "status-warn" : "status-bad"
        return """
            <td class="number">\(counts.calls)</td><td class="number \(status)">\(ConsoleFormat.percent(ratio))</td>\
            <td class="number">\(ConsoleFormat.latency(counts.latency.percentile(0.5)))</td>\
            <td class="number">\(ConsoleFormat.latency(counts.latency.percentile(0.99)))</td>
            """
    }

    private func codesTable() -> HTML {
        var totals: [(provider: String, code: TrafficWindow.Code, count: Int)] = []
        for (provider, counts) in Self.grouped(lastHour, by: { $0.provider }) {
            for (code, count) in counts.codes { totals.append((provider, code, count)) }
        }
        guard !totals.isEmpty else { return "<p class=\"muted\">No results yet.</p>" }
        let top = totals.sorted { ($1.count, $0.provider, $0.code.normalized) < ($0.count, $1.provider, $1.code.normalized) }.prefix(Self.topCodes)
        let rows = top.map { entry -> HTML in
            let explanation = entry.code.normalized == "ok"
                ? TrafficWindow.Explanation(message: "Success: the carrier answered with the number or the verification result.", action: "none")
                : explain(entry.provider, entry.code)
            let status = entry.code.normalized == "ok" ? "status-good" : "status-bad"
            return """
                <tr><td>\(entry.provider)</td><td class="\(status)"><code>\(entry.code.normalized)</code></td>\
                <td><code>\(entry.code.raw ?? "-")</code></td><td class="number">\(entry.count)</td>\
                <td>\(explanation?.message ?? "-")</td><td><code>\(explanation?.action ?? "-")</code></td></tr>
                """
        }
        return """
            <div class="scroll"><table>
            <caption>The most frequent results, with what they mean and what to do (docs/errors.md)</caption>
            <thead><tr><th scope="col">Provider</th><th scope="col">Code</th><th scope="col">Provider code</th><th scope="col">Calls</th>\
            <th scope="col">Meaning</th><th scope="col">Action</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table></div>
            """
    }

    private func circuitsTable() -> HTML {
        guard !circuits.isEmpty else { return "<p class=\"muted\">No provider is configured.</p>" }
        let rows = circuits.map { circuit -> HTML in
            let (status, words): (String, String) = switch circuit.state {
            case "closed": ("status-good", "closed: taking calls")
            case "open": ("status-bad", "open: calls paused, failing fast")
            default: ("status-warn", "half-open: one probe call decides")
            }
            return "<tr><td>\(circuit.provider)</td><td><code>\(circuit.url)</code></td><td class=\"\(status)\">\(words)</td></tr>"
        }
        return """
            <div class="scroll"><table>
            <caption>Circuit of each base URL</caption>
            <thead><tr><th scope="col">Provider</th><th scope="col">Base URL</th><th scope="col">Circuit</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table></div>
            """
    }

    private func capsTable() -> HTML {
        guard !callCaps.isEmpty else { return "" }
        let rows = callCaps.map { cap -> HTML in
            let use = cap.limit > 0 ? Double(cap.inFlight) / Double(cap.limit) : 0
            let status = cap.waiting > 0 ? "status-bad" : use >= 0.8 ? "status-warn" : "status-good"
            return """
                <tr><td>\(cap.provider)</td><td class="number">\(cap.inFlight)</td><td class="number">\(cap.limit)</td>\
                <td class="number \(status)">\(ConsoleFormat.percent(use))</td><td class="number">\(cap.waiting)</td></tr>
                """
        }
        return """
            <div class="scroll"><table>
            <caption>Calls in flight against each provider's cap (providers.&lt;id&gt;.maxConcurrentCalls)</caption>
            <thead><tr><th scope="col">Provider</th><th scope="col">In flight</th><th scope="col">Cap</th><th scope="col">Use</th>\
            <th scope="col">Waiting</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table></div>
            """
    }

    private func readinessTable() -> HTML {
        let rows = checks.map { check -> HTML in
            let ok = check.detail.hasPrefix("ok")
            return "<tr><th scope=\"row\">\(check.name)</th><td class=\"\(ok ? "status-good" : "status-bad")\">\(check.detail)</td></tr>"
        }
        return """
            <div class="scroll"><table>
            <caption>Readiness checks (GET /admin/readyz)</caption>
            <thead><tr><th scope="col">Check</th><th scope="col">Result</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table></div>
            """
    }
}
