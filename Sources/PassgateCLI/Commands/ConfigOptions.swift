import ArgumentParser
import Foundation
import PassgateConfig

/// `--config PATH`, shared by the commands that read the service configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: "Configuration file (YAML).")
    var path = ConfigurationLoader.defaultPath

    /// Loads and validates; on failure prints every problem and exits 78 (EX_CONFIG).
    func load() throws -> PassgateConfiguration {
        do {
            return try ConfigurationLoader.passgate().load(path: path)
        } catch {
            FileHandle.standardError.write(Data(Self.report(error, path: path).utf8))
            throw ExitCode(78)
        }
    }

    static func report(_ error: ConfigurationError, path: String) -> String {
        var text = "\(path): \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s")\n"
        // Messages already begin with the key path; the line number finds it in the file.
        for problem in error.problems { text += "  \(problem.line.map { "line \($0): " } ?? "")\(problem.message)\n" }
        return text
    }
}
