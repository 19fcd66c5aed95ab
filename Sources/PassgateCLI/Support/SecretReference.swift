import Foundation

/// A secret given as `env:NAME`, `file:PATH` or a literal, the same forms as the config file.
/// References keep secrets out of shell history and process listings.
enum SecretReference {
    /// The resolved value; a file's trailing newline is dropped (editors add one).
    static func resolve(_ text: String, option: String) throws -> String {
        if text.hasPrefix("env:") {
            let name = String(text.dropFirst(4))
            guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
                throw CLIError(.noInput, "\(option): environment variable \(name) is not set or empty")
            }
            return value
        }
        if text.hasPrefix("file:") {
            return try readFile(String(text.dropFirst(5)), option: option).trimmingCharacters(in: .newlines)
        }
        return text
    }

    /// A whole text file (keys, ciphertexts), with a message naming the option on failure.
    static func readFile(_ path: String, option: String) throws -> String {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CLIError(.noInput, "\(option): cannot read '\(path)' (missing file or no permission)")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw CLIError(.dataError, "\(option): '\(path)' is not a UTF-8 text file (give PEM or base64, not binary DER)")
        }
        return text
    }
}
