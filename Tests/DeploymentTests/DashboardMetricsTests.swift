import CurlTransport
import Foundation
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport
import Testing

/// Every metric the Grafana dashboard and the alerting rules query is one a real Passgate
/// exports: a metric renamed in code, or misspelt in a query, would otherwise leave an empty
/// panel or an alert that can never fire, and nobody would notice until the outage.
@Suite("Dashboard and alert rules query only metrics Passgate exports")
struct DashboardMetricsTests {
    /// Names the dashboard or the rules may reference although this build does not export them
    /// yet, each with the reason. The test fails once one of them is exported, so that the entry
    /// is removed and a later rename of that metric is caught again.
    static let awaitingWiring: [String: String] = [:]

    @Test("the query tokenizer: metric names only, histogram series resolved to their family")
    func tokenizer() {
        let query = #"histogram_quantile(0.99, sum by (le) (rate(passgate_http_request_duration_seconds_bucket{route=~"/v1/.+"}[5m]))) > 2 and up{job="passgate"}"#
        #expect(MonitoringFiles.metricNames(in: query) == ["passgate_http_request_duration_seconds_bucket"])
        #expect(MonitoringFiles.metricNames(in: "sum(rate(passgate_a_total[1m])) / sum(rate(passgate_b_total[1m]))") == ["passgate_a_total", "passgate_b_total"])
        #expect(MonitoringFiles.metricNames(in: "not_passgate_x + mypassgate_y") == [])
        let types = ["passgate_latency_seconds": "histogram", "passgate_calls_total": "counter", "passgate_size": "summary"]
        #expect(MonitoringFiles.family(of: "passgate_latency_seconds_bucket", exported: types) == "passgate_latency_seconds")
        #expect(MonitoringFiles.family(of: "passgate_latency_seconds_count", exported: types) == "passgate_latency_seconds")
        #expect(MonitoringFiles.family(of: "passgate_size_sum", exported: types) == "passgate_size")
        #expect(MonitoringFiles.family(of: "passgate_size_bucket", exported: types) == nil, "a summary has no buckets")
        #expect(MonitoringFiles.family(of: "passgate_calls_total", exported: types) == "passgate_calls_total")
        #expect(MonitoringFiles.family(of: "passgate_calls_total_count", exported: types) == nil, "a counter has no _count series")
        #expect(MonitoringFiles.family(of: "passgate_call_total", exported: types) == nil)
    }

    @Test("every metric in the dashboard's and the rules' queries is exported by the shipped sandbox configuration after real traffic")
    func everyQueriedMetricIsExported() async throws {
        var referencedBy: [String: Set<String>] = [:]
        for query in try MonitoringFiles.dashboardQueries() {
            for name in MonitoringFiles.metricNames(in: query) { referencedBy[name, default: []].insert(MonitoringFiles.dashboardFile) }
        }
        for rule in try MonitoringFiles.alertRules() {
            for name in MonitoringFiles.metricNames(in: rule.expr) { referencedBy[name, default: []].insert("alert \(rule.alert)") }
        }
        try #require(referencedBy.count >= 15, "the tokenizer found only \(referencedBy.keys.sorted())")

        let caFile = try await Self.certificateFile(days: 365)
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let exported = try await ShippedSandboxPassgate.with(environment: ["PASSGATE_PROVIDERS_CMCC_CAFILE": caFile]) { passgate in
            try await Self.driveTraffic(passgate)
            return metricFamilies(inExposition: try await passgate.metrics())
        }

        for (name, users) in referencedBy.sorted(by: { $0.key < $1.key }) where MonitoringFiles.family(of: name, exported: exported) == nil {
            if Self.awaitingWiring[name] != nil { continue }
            Issue.record("""
                \(name) (queried by \(users.sorted().joined(separator: ", "))) is not exported by a running Passgate. \
                Exported families: \(exported.keys.filter { $0.hasPrefix("passgate_") }.sorted().joined(separator: ", "))
                """)
        }
        for (name, reason) in Self.awaitingWiring {
            #expect(exported[name] == nil, "\(name) is exported now: remove it from awaitingWiring (\(reason)) so that a rename is caught again")
            #expect(referencedBy[name] != nil, "\(name) is in awaitingWiring but no query uses it: remove the entry")
        }
    }

    /// What the queries need to see at least once: a successful exchange (carrier outcome ok,
    /// latency, billable, audit record, libcurl connection), a carrier refusal (token_invalid) and a
    /// client error, then transport failures until the circuit opens (transfers_failed_total,
    /// circuit_open at 1). Everything else is exported from start-up.
    static func driveTraffic(_ passgate: RunningPassgate) async throws {
        let token = try await passgate.mintToken(appId: ShippedSandboxPassgate.md5App)
        let exchanged = try await passgate.post("/v1/phone-number", ["appId": ShippedSandboxPassgate.md5App, "token": token])
        try #require(exchanged.status == 200, "the exchange failed: \(exchanged.body)")
        let spent = try await passgate.post("/v1/phone-number", ["appId": ShippedSandboxPassgate.md5App, "token": "not-a-token-the-sandbox-minted"])
        #expect(spent.status == 422, "\(spent.body)")
        let malformed = try await passgate.post("/v1/phone-number", ["appId": ShippedSandboxPassgate.md5App])
        #expect(malformed.status == 400, "\(malformed.body)")

        // The shipped configuration opens a circuit after circuitFailureThreshold (5) transport failures.
        try await passgate.setFault("connectionReset")
        for attempt in 0..<5 {
            let failed = try await passgate.post("/v1/phone-number", ["appId": ShippedSandboxPassgate.md5App, "token": "reset-\(attempt)"])
            #expect(failed.status >= 500, "\(failed.body)")
        }
        try await passgate.setFault("none")
        let metrics = try await passgate.metrics()
        let series = #"passgate_carrier_circuit_open{provider="cmcc",host="127.0.0.1:"# + "\(passgate.sandboxPort ?? 0)\"} "
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(series) }
        #expect(line.flatMap { Double($0.dropFirst(series.count)) } == 1, "the circuit should be open after 5 connection resets: \(line.map(String.init) ?? "no \(series)")")
    }

    /// A PEM file holding one self-signed certificate valid for `days` days, made by the openssl CLI.
    static func certificateFile(days: Int, subject: String = "/CN=Passgate Monitoring Test CA") async throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-ca-\(UUID().uuidString)").path
        let result = try await Subprocess.run("openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "/dev/null",
            "-out", "\(base).pem", "-days", String(days), "-subj", subject,
        ])
        guard result.status == 0 else { throw Failure("openssl req failed: \(result.stderrText)") }
        return "\(base).pem"
    }
}
