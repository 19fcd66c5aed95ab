import Foundation
import PassgateConfig
import PassgateTestSupport
import Testing

/// `audit.writeDelayMs` and `log.writeDelayMs`: the same kind of setting for the two writer threads.
@Suite("audit and log: writeDelayMs")
struct WriteDelaySettingsTests {
    /// The section, its environment prefix, a key the section also needs in a block, and the delay.
    static let sections: [(section: String, prefix: String, companion: String)] = [
        ("audit", "PASSGATE_AUDIT", "enabled: true"), ("log", "PASSGATE_LOG", "level: info"),
    ]

    static func delay(_ configuration: PassgateConfiguration, _ section: String) -> Int {
        section == "audit" ? configuration.audit.writeDelayMs : configuration.log.writeDelayMs
    }

    @Test("default 5 ms; the file's value is read, 0 included; the environment overrides it", arguments: sections.map(\.section))
    func readAndOverridden(section: String) throws {
        let prefix = Self.sections.first { $0.section == section }!.prefix
        let loader = ConfigurationLoader.testing(environment: Minimal.environment)
        #expect(Self.delay(try loader.load(yaml: Minimal.yaml(), baseDirectory: "/"), section) == 5)
        #expect(Self.delay(try loader.load(yaml: Minimal.yaml() + "\n\(section): {writeDelayMs: 0}", baseDirectory: "/"), section) == 0)
        #expect(Self.delay(try loader.load(yaml: Minimal.yaml() + "\n\(section): {writeDelayMs: 1000}", baseDirectory: "/"), section) == 1000)
        var environment = Minimal.environment
        environment["\(prefix)_WRITEDELAYMS"] = "20"
        let overridden = try ConfigurationLoader.testing(environment: environment).load(
            yaml: Minimal.yaml() + "\n\(section): {writeDelayMs: 0}", baseDirectory: "/")
        #expect(Self.delay(overridden, section) == 20)
    }

    @Test("out of range or not a number: a problem at the key that says what the value does", arguments: sections.map(\.section), [
        ("writeDelayMs: -1", "must be an integer 0-1000"),
        ("writeDelayMs: 1001", "0 writes each line as it"),
        ("writeDelayMs: 5ms", "got '5ms'"),
    ])
    func problemsAtPath(section: String, entry: (String, String)) {
        let companion = Self.sections.first { $0.section == section }!.companion
        let found = problems(Minimal.yaml() + "\n\(section):\n  \(companion)\n  \(entry.0)\n", environment: Minimal.environment)
        #expect(found.map(\.path) == ["\(section).writeDelayMs"], "\(found)")
        #expect(found.first?.message.contains(entry.1) == true, "\(found.first?.message ?? "")")
    }
}
