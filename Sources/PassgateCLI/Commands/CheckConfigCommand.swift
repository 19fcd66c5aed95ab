import ArgumentParser
import Foundation
import PassgateConfig

/// `passgate check-config`: validate a configuration without starting anything.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file and its secrets; list every problem at once.",
        discussion: "Exit 0 when valid, 78 (EX_CONFIG) with one line per problem otherwise."
    )

    @OptionGroup var config: ConfigOptions

    func run() throws {
        let loaded = try config.load()
        let byProvider = Dictionary(grouping: loaded.apps, by: \.provider).map { "\($0.key): \($0.value.count)" }.sorted().joined(separator: ", ")
        print("\(config.path): OK - \(loaded.apps.count) app(s)\(byProvider.isEmpty ? "" : " (\(byProvider))"), \(loaded.clients.count) client(s), state \(loaded.state.backend.rawValue)\(loaded.sandbox.enabled ? ", embedded sandbox enabled" : "")")
    }
}
