import OpenSSLCrypto

enum KeyLoading {
    /// Loads a private key file (PEM or base64 DER), turning OpenSSL's failure into a CLI error.
    static func privateKey(path: String, option: String = "--private-key") throws -> RSAPrivateKey {
        let text = try CLISecrets.readFile(path, option: option)
        do {
            return try RSAPrivateKey(text: text)
        } catch let error as OpenSSLError {
            throw CLIError(.dataError, "\(option) '\(path)': \(error.reason)")
        }
    }

    /// Loads a public key file (PEM or base64 DER).
    static func publicKey(path: String, option: String) throws -> RSAPublicKey {
        let text = try CLISecrets.readFile(path, option: option)
        do {
            return try RSAPublicKey(text: text)
        } catch let error as OpenSSLError {
            throw CLIError(.dataError, "\(option) '\(path)': \(error.reason)")
        }
    }
}
