import ArgumentParser
import PassgateCore
import ProviderShanyan

/// `passgate decrypt-msisdn`: decrypt a number from a captured provider reply: RSA (CMCC's RSA
/// mode, JVerification, Shanyan with a key) or Shanyan's AES form.
struct DecryptMSISDNCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt-msisdn",
        abstract: "Decrypt a number from a provider reply: RSA (hex or base64) with --private-key, or Shanyan's AES form with --shanyan-app-key.",
        discussion: """
            Tells a key mismatch (garbage or failed decryption) from a malformed ciphertext. Shanyan's AES key and IV are \
            derived from the app's appKey (docs/shanyan.md); give it as a literal, env:NAME or file:PATH.
            """
    )

    @Option(name: .customLong("private-key"), help: "Private key file (PEM or base64 DER, PKCS#1 or PKCS#8).")
    var privateKey: String?

    @Option(name: .customLong("shanyan-app-key"), help: "Shanyan's appKey, for its AES-encrypted mobileName.")
    var shanyanAppKey: String?

    @Argument(help: "The number as the provider sent it (msisdn, phone or mobileName).")
    var ciphertext: String

    func run() throws {
        try reportingErrors {
            do {
                switch (privateKey, shanyanAppKey) {
                case (let path?, nil):
                    print(try MSISDN.decrypt(ciphertext, with: try KeyLoading.privateKey(path: path)))
                case (nil, let appKey?):
                    let derived = try ShanyanProvider.aesKeyAndIV(appKey: try CLISecrets.resolve(appKey, option: "--shanyan-app-key"))
                    print(try MSISDN.decryptAES128CBC(ciphertext, key: derived.key, iv: derived.iv))
                default:
                    throw CLIError(.usage, "give exactly one of --private-key (RSA) or --shanyan-app-key (Shanyan's AES form)")
                }
            } catch let error as PassgateError {
                throw CLIError(.dataError, error.message)
            }
        }
    }
}
