import Foundation
import PassgateConfig
import PassgateCore
import PassgateProviders
import PassgateTestSupport
import Testing

@testable import PassgateServer

/// The integration check's explain mode for every registered provider: the request its own
/// `phoneNumber`/`verify` signs and its own explain part explains (the sign host of `passgate
/// sign`), with the token, the number and every secret absent from everything the page shows.
@Suite("the integration check, explain")
struct IntegrationCheckExplainTests {
    /// A token long enough to be told apart by its ends, as SDK tokens are.
    static let token = "STsid0000001a9f3e7c1d2b4a6f8e0c9d7b5a3f1e2d4c6b8a0zz"

    /// The bench plan's apps (each provider's own description of a working app) as a
    /// configuration, secrets from the environment; and every secret value it holds.
    static func configuration() throws -> (PassgateConfiguration, secrets: [String]) {
        let plan = BenchPlan(registry: .builtIn)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-check-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try TestRSAKeys.primaryPEM.write(toFile: "\(directory)/key.pem", atomically: true, encoding: .utf8)
        var environment: [String: String] = [:]
        func line(_ setting: BenchSetting) -> String {
            switch setting.value {
            case .plain(let value): return "\(setting.key): \"\(value)\""
            case .secret(let value):
                let name = "CHECK_SECRET_\(environment.count)"
                environment[name] = value
                return "\(setting.key): \"env:\(name)\""
            case .freshRSAKey: return "\(setting.key): \"file:\(directory)/key.pem\""
            }
        }
        var yaml = "sandbox: {enabled: false}\nproviders:\n"
        for entry in plan.entries {
            yaml += "  \(entry.provider):\n    baseURLs: [\"https://\(entry.provider).example.com\"]\n"
            yaml += entry.load.providerSettings.map { "    " + line($0) + "\n" }.joined()
        }
        yaml += "apps:\n"
        for entry in plan.entries {
            for app in entry.load.apps {
                yaml += "  - appId: \"\(app.appId)\"\n    provider: \(entry.provider)\n" + app.settings.map { "    " + line($0) + "\n" }.joined()
            }
        }
        let configuration = try ConfigurationLoader.testing(environment: environment).load(yaml: yaml, baseDirectory: directory)
        return (configuration, Array(environment.values))
    }

    /// Everything the page would show of `explained`, one string.
    static func shown(_ explained: IntegrationCheck.Explained) -> String {
        ([explained.requestLine, explained.body] + explained.headers.map { "\($0.name): \($0.value)" } + explained.details.map { "\($0.label): \($0.value)" })
            .joined(separator: "\n")
    }

    @Test("every provider's every scenario: signed and explained, and no token, number or secret shown")
    func everyProvider() throws {
        let (configuration, secrets) = try Self.configuration()
        let plan = BenchPlan(registry: .builtIn)
        #expect(Set(plan.scenarios.map(\.provider)) == Set(ProviderRegistry.builtIn.ids), "a scenario per registered provider")
        var checked = 0
        for (provider, scenario) in plan.scenarios {
            let phone = scenario.operation == .verify ? BenchLoad.phoneNumber : nil
            let fields = Dictionary(uniqueKeysWithValues: scenario.fields.map { ($0.name, $0.sample(token: Self.token)) })
            let form = IntegrationCheckForm(appId: scenario.appId, token: Self.token, phoneNumber: phone, providerFields: fields, mode: .explain)
            let explained = try IntegrationCheck.explain(form, configuration: configuration)
            let text = Self.shown(explained)
            #expect(explained.provider == provider && explained.operation == scenario.operation)
            #expect(explained.requestLine.hasPrefix("POST https://") || explained.requestLine.hasPrefix("GET https://"), "\(scenario.name): \(explained.requestLine)")
            #expect(!explained.body.isEmpty || explained.requestLine.contains("?"), "\(scenario.name)")
            #expect(!text.contains(Self.token), "\(scenario.name) shows the token:\n\(text)")
            #expect(text.contains(CheckMask.mask(token: Self.token)) || !explained.details.isEmpty, "\(scenario.name)")
            #expect(!text.contains(BenchLoad.phoneNumber), "\(scenario.name) shows the number:\n\(text)")
            // A single-use field may be a second credential (Yidun's carrier accessToken): shown as a token is.
            let declared = try #require(ProviderRegistry.builtIn[provider]).providerFields
            for (name, value) in fields where declared.first(where: { $0.name == name })?.singleUse == true || value.count >= 16 {
                #expect(!text.contains(value), "\(scenario.name) shows providerFields.\(name):\n\(text)")
            }
            // Secrets as `passgate sign` shows them: a credential it prints (an AccessKey ID, a
            // secretId, a public appKey: identifiers the provider sees in every request) may show;
            // every one it hides never appears here either.
            let request = try SignHost(running: configuration).sign(
                appId: scenario.appId, token: Self.token, phone: phone, requestId: nil, fields: fields)
            let inClear = request.text(showSecrets: false)
            for secret in secrets where !inClear.contains(secret) {
                #expect(!text.contains(secret), "\(scenario.name) shows a secret:\n\(text)")
                checked += 1
            }
        }
        #expect(checked >= plan.scenarios.count, "each scenario's app has a secret that never goes out in clear")
    }

    @Test("CMCC's MD5 explanation lines up: the string to sign with the token masked, the sign whole")
    func cmccLinesUp() throws {
        let (configuration, _) = try Self.configuration()
        let app = try #require(configuration.apps.first { $0.provider == "cmcc" })
        let explained = try IntegrationCheck.explain(.init(appId: app.appId, token: Self.token, mode: .explain), configuration: configuration)
        let details = Dictionary(explained.details.map { ($0.label, $0.value) }, uniquingKeysWith: { first, _ in first })
        let signed = try #require(details["signed string"])
        #expect(signed.contains(CheckMask.mask(token: Self.token)))
        let sign = try #require(details["sign"])
        #expect(explained.body.contains(sign) && sign.count >= 32)
    }

    @Test("refusals name the form's field: an unknown app, a bad providerFields value")
    func refusals() throws {
        let (configuration, _) = try Self.configuration()
        let unknown = #expect(throws: IntegrationCheckForm.Problem.self) {
            try IntegrationCheck.explain(.init(appId: "nope", token: Self.token, mode: .explain), configuration: configuration)
        }
        #expect(unknown?.field == "appId" && unknown?.message.hasPrefix("app nope is not a configured app") == true, "\(String(describing: unknown))")
        let scenario = try #require(BenchPlan(registry: .builtIn).scenarios.first { !$0.scenario.fields.isEmpty }?.scenario)
        let field = try #require(scenario.fields.first)
        let bad = #expect(throws: IntegrationCheckForm.Problem.self) {
            try IntegrationCheck.explain(
                .init(appId: scenario.appId, token: Self.token, providerFields: [field.name: String(repeating: "\u{7}", count: 3)], mode: .explain),
                configuration: configuration)
        }
        #expect(bad?.field == "providerFields" && bad?.message.hasPrefix("providerFields.\(field.name)") == true, "\(String(describing: bad))")
    }
}
