import PassgateCore
import PassgateTestSupport
import Testing

/// The echo provider's bench load: one app and its phone-number path (echo cannot verify). With
/// this file alone the echo provider is in the bench plan, as a new provider's `+Bench.swift` puts
/// it in `bench/run`'s scenarios, configuration and report.
extension EchoProvider: BenchDescribing {
    var benchLoad: BenchLoad {
        BenchLoad(
            apps: [BenchApp(appId: "echobench", settings: [BenchSetting("secret", .secret("echo-bench-secret"))])],
            scenarios: [
                BenchScenario(
                    name: "echo", label: "Echo (exchange)", operation: .phoneNumber, appId: "echobench",
                    upstream: "the echo exchange with its HMAC-SHA256 sig", upstreamSuccess: #""code":"0""#)
            ])
    }
}

/// Kept next to the description it proves (the plug-in folder's other tests prove the other parts).
@Suite("the bench plan for a plugged-in provider")
struct EchoBenchPlanTests {
    @Test("the echo provider's own description joins the plan after the built-in providers', complete")
    func echoInThePlan() throws {
        let plan = BenchPlan(registry: .testing.adding([EchoProvider()]))
        #expect(plan.problems.isEmpty, "\(plan.problems)")
        #expect(plan.undescribed.isEmpty)
        let last = try #require(plan.scenarios.last)
        #expect(last.provider == EchoProvider.id && last.scenario.name == "echo" && last.scenario.coverage == .oneLoad)
        guard case .array(let scenarios)? = try ParsedJSON.parse(plan.json)["scenarios"], let printed = scenarios.last else {
            Issue.record("the plan's JSON has no scenarios array")
            return
        }
        #expect(printed["name"]?.stringValue == "echo" && printed["provider"]?.stringValue == EchoProvider.id)
        #expect(printed["appId"]?.stringValue == "echobench" && printed["upstreamSuccess"]?.stringValue == #""code":"0""#)
    }
}
