import ArgumentParser
import Foundation
import PassgateConfig

/// `passgate sign`: the signed request Passgate would send for a configured app, whatever its
/// provider (``SignHost``), printed with the provider's explanation or as JSON.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print the signed request Passgate would send for an app (for signature rejections: 103101, 302, 9011, SignatureDoesNotMatch).",
        discussion: """
            The app's provider (from the configuration) signs the request with the app's credentials exactly as `serve` does; \
            the request goes nowhere. Printed: the request line, the headers (credential headers masked unless --show-secrets), \
            the body, then what the provider says the signature covers, with secrets as their lengths. With --phone: a \
            number-verification request. --tokens FILE signs one request per line (`TOKEN [PHONE] [NAME=VALUE ...]`, each NAME=VALUE a providerFields \
            value of that request alone, added to --field's; - for stdin); \
            --json prints one JSON object per request (method, url, headers, body) for scripts such as bench/run.
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(name: .customLong("app-id"), help: "A configured app; its provider and credentials sign the request.")
    var appId: String

    @Option(help: "Expect the app's provider to be this one (an error otherwise).")
    var provider: String?

    @Option(help: "The token from the SDK.")
    var token: String?

    @Option(name: .customLong("tokens"), help: "A file of tokens, one request per line: TOKEN [PHONE] [NAME=VALUE ...] (- reads stdin).")
    var tokensFile: String?

    @Option(help: "Number verification: the 11-digit mainland number to verify (default: a phone-number request).")
    var phone: String?

    @Option(name: .customLong("request-id"), help: "The id sent to providers that take one of ours (exID, outId; default: fresh per request).")
    var requestId: String?

    @Option(name: .customLong("field"), help: "A providerFields value the app's provider reads, as NAME=VALUE (e.g. a flow id); repeatable.")
    var fields: [String] = []

    @Option(name: .customLong("base-url"), help: "Base URL of the request line (default: the provider's first configured one, or the embedded sandbox).")
    var baseURL: String?

    @Flag(help: "Print one JSON object per request instead of the explained text.")
    var json = false

    @Flag(name: .customLong("body-only"), help: "Print only the body.")
    var bodyOnly = false

    @Flag(name: .customLong("show-secrets"), help: "Print credential headers (a Basic Authorization) unmasked.")
    var showSecrets = false

    func run() throws {
        let host = SignHost(configuration: try config.load())
        try reportingErrors {
            let options = try Self.providerFields(fields)
            for call in try calls() {
                try Self.checkPlain(call.token, option: tokensFile == nil ? "--token" : "--tokens")
                let fields = options.merging(call.fields) { _, line in line }
                let (token, phone) = (call.token, call.phone)
                var signed: SignedRequest
                do throws(SignHost.Refusal) {
                    signed = try host.sign(appId: appId, provider: provider, token: token, phone: phone, requestId: requestId, fields: fields)
                } catch {
                    throw CLIError(.usage, error.description)
                }
                if let baseURL { signed.baseURL = baseURL }
                print(bodyOnly ? signed.body : json ? signed.json(showSecrets: showSecrets) : signed.text(showSecrets: showSecrets))
            }
        }
    }

    /// `NAME=VALUE` texts (`--field` options, or the fields of a `--tokens` line) as
    /// `providerFields`; `source` names where they came from in the error.
    private static func providerFields<Text: StringProtocol>(_ texts: [Text], source: String = "--field") throws -> [String: String] {
        var sent: [String: String] = [:]
        for field in texts {
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
                throw CLIError(.usage, "\(source) must be NAME=VALUE (providerFields.NAME), got '\(field.prefix { $0 != "=" })…'")
            }
            sent[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        return sent
    }

    /// The requests to sign: `--token` with `--phone`, or every line of `--tokens`.
    private func calls() throws -> [(token: String, phone: String?, fields: [String: String])] {
        switch (token, tokensFile) {
        case (let token?, nil): return [(token, phone, [:])]
        case (nil, let path?):
            let text = path == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : try CLISecrets.readFile(path, option: "--tokens")
            return try text.split(whereSeparator: \.isNewline).enumerated().map { index, line in try Self.call(line, number: index + 1, phone: phone) }
        default: throw CLIError(.usage, "give exactly one of --token or --tokens")
        }
    }

    /// One `--tokens` line, `TOKEN [PHONE] [NAME=VALUE ...]`: the word after the token is the
    /// phone unless it holds `=` (then `defaultPhone`, `--phone`, applies), every later word a field.
    static func call(_ line: Substring, number: Int, phone defaultPhone: String?) throws -> (token: String, phone: String?, fields: [String: String]) {
        var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
        let token = String(words.popFirst() ?? "")
        var phone = defaultPhone
        if let word = words.first, !word.contains("=") {
            phone = String(word)
            words = words.dropFirst()
        }
        return (token, phone, try providerFields(Array(words), source: "--tokens line \(number): a word after the token and phone"))
    }

    /// Rejects values a provider would answer with a confusing code (stray whitespace is CMCC's classic 103119).
    private static func checkPlain(_ value: String, option: String) throws {
        guard !value.isEmpty else { throw CLIError(.usage, "\(option) is empty") }
        guard !value.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw CLIError(.usage, "\(option) contains whitespace; providers answer with misleading codes (CMCC: 103119/103113) for such values")
        }
    }
}
