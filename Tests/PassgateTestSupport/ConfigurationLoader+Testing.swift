import PassgateConfig
import PassgateCore
import PassgateProviders

extension ProviderRegistry {
    /// The providers tests load configurations with: the list `passgate` ships, taken from the
    /// one place it is written, so a provider added there is in every test's configuration too.
    public static var testing: ProviderRegistry { .builtIn }
}

extension ConfigurationLoader {
    /// A loader over the test registry (``ProviderRegistry/testing``): what every test that loads
    /// a configuration uses, so none spells out a provider list of its own.
    public static func testing(
        environment: [String: String], registry: ProviderRegistry = .testing, sandboxFaults: [String] = ["none"],
        files: ConfigurationFiles = .system
    ) -> ConfigurationLoader {
        ConfigurationLoader(environment: environment, registry: registry, sandboxFaults: sandboxFaults, files: files)
    }
}
