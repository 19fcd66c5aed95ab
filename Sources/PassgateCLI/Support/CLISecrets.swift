import PassgateConfig

/// Secrets and key files named on the command line, with errors that name the option.
enum CLISecrets {
    /// `literal`, `env:NAME` or `file:PATH`, as in the config file.
    static func resolve(_ text: String, option: String) throws -> String {
        do {
            return try SecretReference(parsing: text).resolve()
        } catch {
            throw CLIError(.noInput, "\(option): \(error.description)")
        }
    }

    /// A whole text file (keys, ciphertexts).
    static func readFile(_ path: String, option: String) throws -> String {
        do {
            return try SecretReference.readText(path)
        } catch {
            throw CLIError(error.description.contains("UTF-8") ? .dataError : .noInput, "\(option): \(error.description)")
        }
    }
}
