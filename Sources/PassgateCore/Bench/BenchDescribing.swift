/// A provider's bench load description, in its own `<Name>Provider+Bench.swift`: the apps the
/// bench configures for it and the loads it measures against them. `passgate bench-plan --json`
/// prints every registered provider's, and `bench/run` takes from it alone its configuration's
/// provider and app entries, its scenarios, how it recognises a good answer and its report's
/// labels, so a provider gets its bench rows from this one file (bench/README.md).
public protocol BenchDescribing: CarrierProvider {
    /// What the bench measures of this provider.
    var benchLoad: BenchLoad { get }
}

/// The apps and scenarios of one provider's bench load.
public struct BenchLoad: Sendable {
    /// The number every bench token is minted for: a success marker that carries the number in
    /// clear uses it.
    public static let phoneNumber = "13800138000"

    /// Keys of the provider's section beyond the ones the bench sets for every provider (base URL,
    /// timeouts, call cap, event loop).
    public var providerSettings: [BenchSetting]
    /// The app entries the bench configures for this provider; each scenario names one.
    public var apps: [BenchApp]
    /// The loads measured, in the order the bench runs and reports them.
    public var scenarios: [BenchScenario]

    public init(providerSettings: [BenchSetting] = [], apps: [BenchApp], scenarios: [BenchScenario]) {
        self.providerSettings = providerSettings
        self.apps = apps
        self.scenarios = scenarios
    }
}

/// One app entry of the bench configuration: `appId` and `provider` (the provider's id) plus
/// ``settings``.
public struct BenchApp: Sendable {
    public var appId: String
    public var settings: [BenchSetting]

    public init(appId: String, settings: [BenchSetting]) {
        self.appId = appId
        self.settings = settings
    }
}

/// One key of a bench configuration entry and its value.
public struct BenchSetting: Sendable {
    public enum Value: Sendable, Equatable {
        /// Written as it is (`signMode: md5`).
        case plain(String)
        /// A made-up credential for the bench's own sandbox only. The bench writes it to a file
        /// and the entry refers to it as `file:PATH` (with the embedded sandbox off, Passgate
        /// reads no literal secret); the sandbox process reads the same file.
        case secret(String)
        /// A fresh 2048-bit RSA private key the bench generates for each run, referred to as
        /// `file:PATH`.
        case freshRSAKey
    }

    public var key: String
    public var value: Value

    public init(_ key: String, _ value: Value) {
        self.key = key
        self.value = value
    }
}
