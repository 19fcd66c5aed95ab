import Foundation
import Yams

/// The monitoring that ships: `deploy/prometheus/` (alerting rules and their promtool unit tests)
/// and `deploy/grafana/` (the dashboard), read as Prometheus and Grafana read them.
enum MonitoringFiles {
    static let rulesDirectory = "deploy/prometheus"
    static let rulesFile = "passgate-rules.yaml"
    static let rulesTestFile = "passgate-rules.test.yaml"
    static let dashboardFile = "deploy/grafana/passgate-dashboard.json"

    /// One alerting rule of the rule file.
    struct AlertRule {
        let group: String
        let alert: String
        let expr: String
        let labels: [String: String]
        let annotations: [String: String]
    }

    static func alertRules() throws -> [AlertRule] {
        let path = "\(rulesDirectory)/\(rulesFile)"
        let document = try YAMLMap(try Yams.load(yaml: Repository.text(path)), at: path)
        var rules: [AlertRule] = []
        for group in try document.maps("groups") {
            for rule in try group.maps("rules") {
                rules.append(AlertRule(
                    group: try group.string("name"), alert: try rule.string("alert"), expr: try rule.string("expr"),
                    labels: (try? rule.labels("labels")) ?? [:], annotations: (try? rule.labels("annotations")) ?? [:]
                ))
            }
        }
        return rules
    }

    /// Every PromQL query of the dashboard: the panels' `expr`s and the template variables' queries.
    static func dashboardQueries() throws -> [String] {
        let data = Data(try Repository.text(dashboardFile).utf8)
        let dashboard: Any
        do {
            dashboard = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Failure("\(dashboardFile) is not valid JSON: \(error)")
        }
        var queries: [String] = []
        collectQueries(in: dashboard, into: &queries)
        guard let templating = (dashboard as? [String: Any])?["templating"] as? [String: Any],
            let variables = templating["list"] as? [[String: Any]]
        else { throw Failure("\(dashboardFile) has no templating.list") }
        for variable in variables where variable["type"] as? String == "query" {
            if let query = variable["query"] as? String { queries.append(query) }
            if let query = (variable["query"] as? [String: Any])?["query"] as? String { queries.append(query) }
        }
        return queries
    }

    private static func collectQueries(in value: Any, into queries: inout [String]) {
        if let object = value as? [String: Any] {
            for (key, child) in object {
                if key == "expr", let expr = child as? String { queries.append(expr) } else { collectQueries(in: child, into: &queries) }
            }
        } else if let array = value as? [Any] {
            for child in array { collectQueries(in: child, into: &queries) }
        }
    }

    /// The metric names a query mentions: every identifier `passgate_[a-z0-9_]+` (the service's
    /// own prefix; `up` and label names are not its metrics). Label values that happen to start
    /// with the prefix would be caught too, and none does.
    static func metricNames(in query: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(query)
        while let start = rest.range(of: "passgate_") {
            // Only at the start of an identifier: `xpassgate_y` is not a reference.
            let before = start.lowerBound == rest.startIndex ? nil : rest[rest.index(before: start.lowerBound)]
            let name = rest[start.lowerBound...].prefix { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
            if before.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { names.insert(String(name)) }
            rest = rest[name.endIndex...]
        }
        return names
    }

    /// The exported family a referenced name belongs to: the name itself, or a histogram's
    /// `_bucket`/`_sum`/`_count` series (a summary's `_sum`/`_count`). `nil` when nothing exports it.
    static func family(of name: String, exported types: [String: String]) -> String? {
        if types[name] != nil { return name }
        let suffixes: [(String, Set<String>)] = [("_bucket", ["histogram"]), ("_sum", ["histogram", "summary"]), ("_count", ["histogram", "summary"])]
        for (suffix, kinds) in suffixes where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if let type = types[base], kinds.contains(type) { return base }
        }
        return nil
    }

    /// Markdown headings' anchors as GitHub makes them: lower case, punctuation dropped, spaces as
    /// hyphens (`### Runbook: error codes that need a human` -> `runbook-error-codes-that-need-a-human`).
    static func anchors(inMarkdown text: String) -> Set<String> {
        var anchors: Set<String> = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = title.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
            anchors.insert(slug.replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }
}
