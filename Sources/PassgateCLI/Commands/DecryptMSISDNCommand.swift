import ArgumentParser
import PassgateConfig
import PassgateCore

/// `passgate decrypt-msisdn`: decrypt a number from a captured provider reply, with an RSA key
/// file, or as a configured app's provider decrypts its replies (whatever its scheme).
struct DecryptMSISDNCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt-msisdn",
        abstract: "Decrypt a number from a provider reply: RSA (hex or base64) with --private-key, or as app --app-id's provider does.",
        discussion: """
            Tells a key mismatch (garbage or failed decryption) from a malformed ciphertext. With --app-id the app's provider \
            decrypts with the app's configured keys, as the server does with a reply (RSA, or a provider's own scheme, \
            such as an AES key derived from the appKey).
            """
    )

    @Option(name: .customLong("private-key"), help: "Private key file (PEM or base64 DER, PKCS#1 or PKCS#8).")
    var privateKey: String?

    @Option(name: .customLong("app-id"), help: "A configured app: its provider decrypts with its keys.")
    var appId: String?

    @OptionGroup var config: ConfigOptions

    @Argument(help: "The number as the provider sent it (msisdn, phone or mobileName).")
    var ciphertext: String

    func run() throws {
        try reportingErrors {
            do {
                switch (privateKey, appId) {
                case (let path?, nil):
                    print(try MSISDN.decrypt(ciphertext, with: try KeyLoading.privateKey(path: path)))
                case (nil, let appId?):
                    let configuration = try config.load()
                    guard let app = configuration.app(appId), let provider = configuration.registry[app.provider] else {
                        throw CLIError(.usage, "--app-id \(appId) is not an app of \(config.path)")
                    }
                    guard let number = try provider.decryptedNumber(ciphertext, app: app.settings) else {
                        throw CLIError(.usage, "app \(appId): its provider (\(app.provider)) sends this app's numbers in clear; nothing to decrypt")
                    }
                    print(number)
                default:
                    throw CLIError(.usage, "give exactly one of --private-key (RSA) or --app-id (the app's provider and keys)")
                }
            } catch let error as PassgateError {
                throw CLIError(.dataError, error.message)
            }
        }
    }
}
