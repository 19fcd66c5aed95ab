/// Every registered provider's bench load description, as `passgate bench-plan` prints it for
/// `bench/run`: the one place the bench learns which providers, apps and scenarios it measures.
public struct BenchPlan: Sendable {
    /// One provider's load, under its id.
    public struct Entry: Sendable {
        public var provider: String
        public var load: BenchLoad
        /// The `providerFields` the provider reads: a scenario sends every required one and no other.
        public var providerFields: [ProviderField]

        public init(provider: String, load: BenchLoad, providerFields: [ProviderField] = []) {
            self.provider = provider
            self.load = load
            self.providerFields = providerFields
        }
    }

    /// The described providers, in registration order (the scenarios run in this order).
    public var entries: [Entry]
    /// The registered providers without a bench description, by id (left out of the bench).
    public var undescribed: [String]

    public init(registry: ProviderRegistry) {
        var entries: [Entry] = []
        var undescribed: [String] = []
        for provider in registry.providers {
            // A provider without a description is left out of the bench, as one without an
            // emulator is left out of the sandbox.
            if let describing = provider as? any BenchDescribing {
                entries.append(Entry(provider: provider.id, load: describing.benchLoad, providerFields: provider.providerFields))
            } else {
                undescribed.append(provider.id)
            }
        }
        self.entries = entries
        self.undescribed = undescribed
    }

    /// Every scenario of the plan with its provider's id, in run order.
    public var scenarios: [(provider: String, scenario: BenchScenario)] {
        entries.flatMap { entry in entry.load.scenarios.map { (entry.provider, $0) } }
    }

    /// The run-name prefixes of the bench's own references (`upstream-md5-c64-l0`, `healthz-c64`),
    /// which no scenario may be named.
    public static let reservedNames: Set<String> = ["upstream", "proxy", "go", "goproxy", "healthz"]

    /// What makes the plan unusable for the bench, one line each naming the provider and the
    /// field; empty when the bench can run every scenario.
    public var problems: [String] {
        var problems: [String] = []
        var names: [String: String] = [:]
        var appIds: [String: String] = [:]
        for entry in entries {
            let provider = entry.provider
            if entry.load.scenarios.isEmpty { problems.append("\(provider): benchLoad.scenarios is empty") }
            for app in entry.load.apps {
                if app.appId.isEmpty { problems.append("\(provider): benchLoad.apps has an empty appId") }
                if let other = appIds.updateValue(provider, forKey: app.appId) {
                    problems.append("\(provider): benchLoad app \(app.appId) is also \(other)'s")
                }
                let keys = app.settings.map(\.key)
                if let repeated = keys.first(where: { key in keys.filter { $0 == key }.count > 1 }) {
                    problems.append("\(provider): benchLoad app \(app.appId) sets \(repeated) twice")
                }
            }
            for scenario in entry.load.scenarios {
                let name = scenario.name
                if name.isEmpty || !name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }) {
                    problems.append("\(provider): bench scenario name \"\(name)\" must be lower-case letters and digits")
                }
                if Self.reservedNames.contains(name) {
                    problems.append("\(provider): bench scenario name \(name) is one the bench uses for its references")
                }
                if let other = names.updateValue(provider, forKey: name) {
                    problems.append("\(provider): bench scenario \(name) is also \(other)'s")
                }
                if !entry.load.apps.contains(where: { $0.appId == scenario.appId }) {
                    problems.append("\(provider): bench scenario \(name) names app \(scenario.appId), not one of its benchLoad.apps")
                }
                for (field, value) in [("label", scenario.label), ("upstream", scenario.upstream), ("upstreamSuccess", scenario.upstreamSuccess)]
                where value.allSatisfy(\.isWhitespace) {
                    problems.append("\(provider): bench scenario \(name) has an empty \(field)")
                }
                if scenario.privateKeyOperations < 0 { problems.append("\(provider): bench scenario \(name) has negative privateKeyOperations") }
                problems += Self.fieldProblems(scenario, of: entry)
            }
        }
        return problems
    }

    /// What is wrong with `scenario`'s ``BenchScenario/fields``: one the provider does not read,
    /// one given twice, text other than letters and digits, a value the provider would refuse, a
    /// required one missing (the server would refuse every request).
    private static func fieldProblems(_ scenario: BenchScenario, of entry: Entry) -> [String] {
        let (provider, name) = (entry.provider, scenario.name)
        var problems: [String] = []
        var seen: Set<String> = []
        for field in scenario.fields {
            if !seen.insert(field.name).inserted { problems.append("\(provider): bench scenario \(name) sends field \(field.name) twice") }
            guard let declared = entry.providerFields.first(where: { $0.name == field.name }) else {
                problems.append("\(provider): bench scenario \(name) sends field \(field.name), not one of its provider's providerFields")
                continue
            }
            if !field.isPlain {
                problems.append("\(provider): bench scenario \(name) field \(field.name) must be letters and digits (a unique one's prefix too)")
            } else if field.value != .token, !declared.accepts(field.sample(token: "")) {
                // A token's value is the sandbox's minted token, which the server checks as it comes.
                problems.append("\(provider): bench scenario \(name) field \(field.name) makes values its provider refuses (\(field.sample(token: "").utf8.count) characters)")
            }
        }
        for declared in entry.providerFields where declared.required && !seen.contains(declared.name) {
            problems.append("\(provider): bench scenario \(name) sends no \(declared.name), which its provider requires")
        }
        return problems
    }
}
