import Foundation
import PassgateTestSupport
import Testing
import Yams

/// `deploy/prometheus/passgate-rules.yaml` as Prometheus itself reads it: promtool (Debian's
/// `prometheus` package; scripts/bootstrap installs it) checks the rules and runs their unit tests,
/// and every alert carries what an on-call engineer needs.
@Suite("Prometheus alerting rules")
struct PrometheusRulesTests {
    static func promtool() throws -> String {
        guard let path = Binaries.find("promtool") else {
            throw Failure("promtool is not on PATH: run scripts/bootstrap (it installs Debian's prometheus package, which ships promtool)")
        }
        return path
    }

    /// `promtool ARGUMENTS…` run in deploy/prometheus, where the test file names the rule file.
    static func runPromtool(_ arguments: [String]) async throws -> SubprocessResult {
        try await Subprocess.run(try promtool(), arguments, currentDirectory: Repository.path(MonitoringFiles.rulesDirectory))
    }

    @Test("promtool check rules accepts the rule file")
    func checkRules() async throws {
        let result = try await Self.runPromtool(["check", "rules", MonitoringFiles.rulesFile])
        #expect(result.status == 0, "promtool check rules \(MonitoringFiles.rulesFile):\n\(result.stdoutText)\(result.stderrText)")
    }

    @Test("promtool test rules: every alert fires on its case, with its labels and annotations, and stays quiet at its edges")
    func testRules() async throws {
        let result = try await Self.runPromtool(["test", "rules", MonitoringFiles.rulesTestFile])
        #expect(result.status == 0, "promtool test rules \(MonitoringFiles.rulesTestFile):\n\(result.stdoutText)\(result.stderrText)")
    }

    @Test("every alert has a severity, a summary, a description, a runbook anchor that exists, and a firing case per severity")
    func alertsAreActionable() throws {
        let rules = try MonitoringFiles.alertRules()
        try #require(!rules.isEmpty)
        var anchors: [String: Set<String>] = [:]
        for rule in rules {
            let name = "\(rule.alert) (\(rule.labels["severity"] ?? "no severity"))"
            #expect(["warning", "critical"].contains(rule.labels["severity"] ?? ""), "\(name): severity must be warning or critical")
            #expect((rule.annotations["summary"] ?? "").count >= 20, "\(name): summary")
            #expect((rule.annotations["description"] ?? "").count >= 100, "\(name): a description that says what to do")
            let runbook = rule.annotations["runbook"] ?? ""
            let parts = runbook.split(separator: "#", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                Issue.record("\(name): runbook '\(runbook)' is not FILE#anchor")
                continue
            }
            if anchors[parts[0]] == nil { anchors[parts[0]] = MonitoringFiles.anchors(inMarkdown: (try? Repository.text(parts[0])) ?? "") }
            #expect(anchors[parts[0]]?.contains(parts[1]) == true, "\(name): runbook \(runbook) names no heading of \(parts[0])")
        }

        // Which (alert, severity) pairs the promtool tests expect to fire at least once.
        let path = "\(MonitoringFiles.rulesDirectory)/\(MonitoringFiles.rulesTestFile)"
        let tests = try YAMLMap(try Yams.load(yaml: Repository.text(path)), at: path)
        var fired: Set<String> = []
        for group in try tests.maps("tests") {
            for check in try group.maps("alert_rule_test") {
                for expected in try check.maps("exp_alerts") {
                    let labels = try expected.labels("exp_labels")
                    fired.insert("\(try check.string("alertname")) \(labels["severity"] ?? "")")
                }
            }
        }
        for rule in rules {
            #expect(fired.contains("\(rule.alert) \(rule.labels["severity"] ?? "")"), "\(rule.alert) (\(rule.labels["severity"] ?? "")) has no case that fires it in \(path)")
        }
    }

    @Test("every dashboard query is valid PromQL (checked by promtool as recording rules, Grafana's variables filled in)")
    func dashboardQueriesParse() async throws {
        let queries = try MonitoringFiles.dashboardQueries().filter { !$0.hasPrefix("label_values(") }
        try #require(queries.count >= 15)
        let filled = queries.map {
            $0.replacingOccurrences(of: "$__rate_interval", with: "5m").replacingOccurrences(of: "$instance", with: ".*")
                .replacingOccurrences(of: "$provider", with: ".*")
        }
        // JSON strings are YAML strings: no escaping of PromQL's quotes and braces to get wrong.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let records = try filled.enumerated().map { index, query in
            "      - record: passgate:dashboard_query_\(index)\n        expr: \(String(decoding: try encoder.encode(query), as: UTF8.self))"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-dashboard-queries-\(UUID().uuidString).yaml").path
        try ("groups:\n  - name: dashboard\n    rules:\n" + records.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await Subprocess.run(try Self.promtool(), ["check", "rules", file])
        #expect(result.status == 0, "promtool rejects a dashboard query:\n\(result.stdoutText)\(result.stderrText)")
    }
}
