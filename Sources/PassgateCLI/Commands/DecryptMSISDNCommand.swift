import ArgumentParser
import PassgateCore

/// `passgate decrypt-msisdn`: decrypt an RSA-mode msisdn from a captured carrier reply.
struct DecryptMSISDNCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt-msisdn",
        abstract: "Decrypt an RSA-mode msisdn (hex or base64) with the app's private key.",
        discussion: "Tells a key mismatch (garbage or failed decryption) from a malformed ciphertext."
    )

    @Option(name: .customLong("private-key"), help: "Private key file (PEM or base64 DER, PKCS#1 or PKCS#8).")
    var privateKey: String

    @Argument(help: "The msisdn field as the carrier sent it (hex or base64).")
    var ciphertext: String

    func run() throws {
        try reportingErrors {
            let key = try KeyLoading.privateKey(path: privateKey)
            do {
                print(try MSISDN.decrypt(ciphertext, with: key))
            } catch let error as PassgateError {
                throw CLIError(.dataError, error.message)
            }
        }
    }
}
