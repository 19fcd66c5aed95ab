import ArgumentParser
import PassgateCore
import PassgateProviders

/// `passgate bench-plan`: every built-in provider's bench load description (``BenchPlan``), which
/// `bench/run` reads instead of naming providers itself.
struct BenchPlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-plan",
        abstract: "Print what bench/run measures of each provider: its apps and scenarios.",
        discussion: """
            Each provider describes its bench load in its own folder (<Name>Provider+Bench.swift): the scenarios (md5, jv, ...), \
            the Passgate route each loads, the bench app it uses, the sandbox's endpoint measured alone as its upstream reference \
            and how a good answer from it looks. --json prints the whole plan, with the apps' made-up sandbox credentials, \
            for bench/run. Exit 70 when a description is incomplete (each problem named).
            """
    )

    @Flag(help: "Print the plan as one JSON object (for bench/run), with the bench apps' settings.")
    var json = false

    func run() throws {
        try reportingErrors {
            print(try Self.render(BenchPlan(registry: .builtIn), json: json))
        }
    }

    /// The plan as printed; a ``CLIError`` naming every problem when it is incomplete.
    static func render(_ plan: BenchPlan, json: Bool) throws -> String {
        let problems = plan.problems
        guard problems.isEmpty else {
            throw CLIError(.software, "the bench plan is incomplete:\n" + problems.joined(separator: "\n"))
        }
        if json { return String(decoding: plan.json, as: UTF8.self) }
        var lines = plan.scenarios.map { provider, scenario in
            let route = scenario.operation == .verify ? "/v1/phone-number/verify" : "/v1/phone-number"
            return "\(scenario.name)\t\(provider)\t\(route)\tapp \(scenario.appId)\t\(scenario.coverage.rawValue)\t\(scenario.label)"
        }
        if !plan.undescribed.isEmpty { lines.append("not benched (no bench description): \(plan.undescribed.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
    }
}
