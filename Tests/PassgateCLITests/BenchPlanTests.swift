import Foundation
import PassgateCLI
import PassgateConfig
import PassgateCore
import PassgateProviders
import PassgateTestSupport
import Testing

/// The bench plan (`passgate bench-plan`): every built-in provider describes its bench load in its
/// own `+Bench.swift`, completely enough for `bench/run` to configure, mint, sign and judge it.
@Suite("the bench plan: each provider's own bench load description")
struct BenchPlanTests {
    /// The plan's apps as a configuration the loader reads: the secrets from the environment, the
    /// fresh keys from one test key file, every provider at an address nothing listens on.
    static func configuration(_ plan: BenchPlan) throws -> PassgateConfiguration {
        let directory = try ProcessRunner.temporaryDirectory()
        try TestRSAKeys.primaryPEM.write(toFile: "\(directory)/bench.pem", atomically: true, encoding: .utf8)
        var environment: [String: String] = [:]
        var yaml = "sandbox: {enabled: false}\nproviders:\n"
        for entry in plan.entries {
            yaml += "  \(entry.provider):\n    baseURLs: [\"http://127.0.0.1:9\"]\n"
            yaml += try entry.load.providerSettings.map { "    " + (try Self.line($0, &environment, directory)) + "\n" }.joined()
        }
        yaml += "apps:\n"
        for entry in plan.entries {
            for app in entry.load.apps {
                yaml += "  - appId: \"\(app.appId)\"\n    provider: \(entry.provider)\n"
                yaml += try app.settings.map { "    " + (try Self.line($0, &environment, directory)) + "\n" }.joined()
            }
        }
        return try ConfigurationLoader.testing(environment: environment).load(yaml: yaml, baseDirectory: directory)
    }

    private static func line(_ setting: BenchSetting, _ environment: inout [String: String], _ directory: String) throws -> String {
        switch setting.value {
        case .plain(let value): return "\(setting.key): \"\(value)\""
        case .secret(let value):
            let name = "BENCH_SECRET_\(environment.count)"
            environment[name] = value
            return "\(setting.key): \"env:\(name)\""
        case .freshRSAKey: return "\(setting.key): \"file:\(directory)/bench.pem\""
        }
    }

    @Test("every built-in provider describes a complete bench load, and the plan keeps the bench's scenario names")
    func builtInsAreComplete() throws {
        let plan = BenchPlan(registry: .builtIn)
        #expect(plan.undescribed.isEmpty, "providers without a +Bench.swift: \(plan.undescribed)")
        #expect(plan.entries.map(\.provider) == ProviderRegistry.builtIn.providers.map(\.id))
        #expect(plan.problems.isEmpty, "\(plan.problems)")
        #expect(plan.scenarios.map(\.scenario.name) == ["md5", "rsa", "verify", "jv", "sy", "ali", "gt", "gy", "yd", "tc", "mt", "um"])
        #expect(plan.scenarios.filter { $0.scenario.coverage == .everyLoad }.map(\.scenario.name) == ["md5", "rsa", "verify"])
        for entry in plan.entries {
            let provider = try #require(ProviderRegistry.builtIn[entry.provider])
            for app in entry.load.apps {
                let unknown = app.settings.map(\.key).filter { !provider.appKeys.contains($0) }
                #expect(unknown.isEmpty, "\(entry.provider) bench app \(app.appId) sets keys its provider does not read: \(unknown)")
            }
        }
    }

    @Test("each scenario's app loads through its provider and signs the scenario's call, as bench/run has it signed")
    func everyScenarioSigns() throws {
        let plan = BenchPlan(registry: .builtIn)
        let host = SignHost(configuration: try Self.configuration(plan))
        for (provider, scenario) in plan.scenarios {
            let phone = scenario.operation == .verify ? BenchLoad.phoneNumber : nil
            let fields = Dictionary(uniqueKeysWithValues: scenario.fields.map { ($0.name, $0.sample(token: "benchtoken0001")) })
            let signed = try host.sign(appId: scenario.appId, provider: provider, token: "benchtoken0001", phone: phone, fields: fields)
            #expect(signed.call.operation == scenario.operation, "\(scenario.name)")
            #expect(!signed.body.isEmpty, "\(scenario.name)")
            for value in fields.values { #expect(signed.body.contains(value), "\(scenario.name) sends its field \(value) upstream") }
        }
    }

    @Test("an incomplete description is named: its provider, scenario and field")
    func problemsAreNamed() {
        let scenario = BenchScenario(name: "upstream", label: " ", operation: .phoneNumber, appId: "missing", upstream: "u", upstreamSuccess: "")
        var plan = BenchPlan(registry: ProviderRegistry([]))
        plan.entries = [
            .init(provider: "first", load: BenchLoad(apps: [BenchApp(appId: "a", settings: [BenchSetting("k", .plain("1")), BenchSetting("k", .plain("2"))])], scenarios: [scenario])),
            .init(provider: "second", load: BenchLoad(apps: [BenchApp(appId: "a", settings: [])], scenarios: [])),
        ]
        let problems = plan.problems.joined(separator: "\n")
        for expected in [
            "first: benchLoad app a sets k twice", "first: bench scenario name upstream is one the bench uses for its references",
            "first: bench scenario upstream names app missing", "first: bench scenario upstream has an empty label",
            "first: bench scenario upstream has an empty upstreamSuccess", "second: benchLoad.scenarios is empty",
            "second: benchLoad app a is also first's",
        ] {
            #expect(problems.contains(expected), "\(problems)")
        }
    }

    @Test("a scenario's fields are held to its provider's providerFields: unknown, repeated, not plain, refused, or a required one missing")
    func fieldProblemsAreNamed() {
        let declared = [
            ProviderField(name: "flowId", required: true, maxLength: 24, charset: .alphanumeric(plus: ""), singleUse: true),
            ProviderField(name: "device", required: false, maxLength: 32, charset: .alphanumeric(plus: ""), singleUse: false),
        ]
        func problems(_ fields: [BenchField]) -> String {
            let scenario = BenchScenario(name: "nu", label: "l", operation: .phoneNumber, appId: "a", upstream: "u", upstreamSuccess: "ok", fields: fields)
            var plan = BenchPlan(registry: ProviderRegistry([]))
            plan.entries = [.init(provider: "p", load: BenchLoad(apps: [BenchApp(appId: "a", settings: [])], scenarios: [scenario]), providerFields: declared)]
            return plan.problems.joined(separator: "\n")
        }
        #expect(problems([BenchField("flowId", .unique(prefix: "nu")), BenchField("device", .fixed("d1"))]).isEmpty)
        #expect(problems([BenchField("device", .fixed("d1"))]).contains("p: bench scenario nu sends no flowId, which its provider requires"))
        #expect(problems([BenchField("flowId", .unique(prefix: "nu")), BenchField("other", .fixed("x"))]).contains("sends field other, not one of its provider's providerFields"))
        #expect(problems([BenchField("flowId", .unique(prefix: "nu")), BenchField("flowId", .unique(prefix: "nv"))]).contains("sends field flowId twice"))
        #expect(problems([BenchField("flowId", .unique(prefix: "n-u"))]).contains("field flowId must be letters and digits"))
        #expect(problems([BenchField("flowId", .unique(prefix: "prefixtoolong"))]).contains("field flowId makes values its provider refuses"))
    }

    @Test("passgate bench-plan --json prints every scenario with its app and the apps' settings; the text names no secret")
    func command() async throws {
        let result = try await ProcessRunner.passgate(["bench-plan", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["phoneNumber"] as? String == BenchLoad.phoneNumber)
        let scenarios = try #require(object["scenarios"] as? [[String: Any]])
        let jv = try #require(scenarios.first { $0["name"] as? String == "jv" })
        #expect(jv["provider"] as? String == "jverification" && jv["operation"] as? String == "phone_number")
        #expect(jv["privateKeyOperations"] as? Int == 1 && jv["coverage"] as? String == "one-load")
        #expect(scenarios.first { $0["name"] as? String == "verify" }?["operation"] as? String == "verify")
        let providers = try #require(object["providers"] as? [[String: Any]])
        let cmccApps = try #require(providers.first { $0["id"] as? String == "cmcc" }?["apps"] as? [[String: Any]])
        let rsaSettings = try #require(cmccApps.first { $0["appId"] as? String == "300022222222" }?["settings"] as? [[String: Any]])
        #expect(rsaSettings.contains { $0["key"] as? String == "privateKey" && $0["kind"] as? String == "rsa-key" })
        let gt = try #require(scenarios.first { $0["name"] as? String == "gt" })
        let gtFields = try #require(gt["fields"] as? [[String: String]])
        #expect(gtFields == [["name": "processId", "kind": "unique", "value": "gtbench"]])
        #expect((jv["fields"] as? [Any])?.isEmpty == true)
        let mtFields = try #require(scenarios.first { $0["name"] as? String == "mt" }?["fields"] as? [[String: String]])
        #expect(mtFields.contains(["name": "opToken", "kind": "token"]))

        let text = try await ProcessRunner.passgate(["bench-plan"])
        #expect(text.status == 0 && text.stdout.contains("jv\tjverification\t/v1/phone-number\tapp jg-bench"), "\(text.stdout)")
        let secrets = BenchPlan(registry: .builtIn).entries.flatMap(\.load.apps).flatMap(\.settings).compactMap { setting -> String? in
            if case .secret(let value) = setting.value { return value }
            return nil
        }
        #expect(!secrets.isEmpty && secrets.allSatisfy { !text.stdout.contains($0) })
    }
}
