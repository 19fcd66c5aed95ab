import ArgumentParser
import Foundation
import OpenSSLCrypto
import PassgateCore

/// `passgate keys …`: key material in the forms carrier consoles want.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Generate and inspect RSA keys.",
        subcommands: [KeysGenerateCommand.self]
    )
}

/// `passgate keys generate`: a PKCS#8 private key and the console's single-line base64 public key.
struct KeysGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate an RSA key pair: private.pem (PKCS#8), public.pem, and public.b64 for the CMCC console."
    )

    @Option(help: "Key size in bits (1024-4096).")
    var bits = 2048

    @Option(help: "Directory to write into (created if missing).")
    var out: String

    @Flag(help: "Overwrite existing key files.")
    var force = false

    func run() throws {
        try reportingErrors {
            guard supportedRSABits.contains(bits) else {
                throw CLIError(.usage, "--bits must be between \(supportedRSABits.lowerBound) and \(supportedRSABits.upperBound), got \(bits)")
            }
            let key = try RSAPrivateKey.generate(bits: bits)
            let files: [(String, String, mode_t)] = [
                ("private.pem", try key.pkcs8PEM(), 0o600),
                ("public.pem", try key.publicKey.pem(), 0o644),
                ("public.b64", try key.publicKey.base64DER() + "\n", 0o644),
            ]
            do {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            } catch {
                throw CLIError(.cannotCreate, "--out: cannot create directory '\(out)': \(error.localizedDescription)")
            }
            for (name, _, _) in files where !force && access("\(out)/\(name)", F_OK) == 0 {
                throw Self.exists("\(out)/\(name)")
            }
            var written: [String] = []
            for (name, content, mode) in files {
                let path = "\(out)/\(name)"
                if force, unlink(path) != 0, errno != ENOENT {
                    throw CLIError(.cannotCreate, "cannot replace '\(path)': \(String(cString: strerror(errno)))")
                }
                // Created with its final mode and O_EXCL: the private key is never readable by
                // others, even briefly, and a file (or symbolic link) put there meanwhile is never
                // written through.
                if let failure = DescriptorOutput.createFile(path, containing: Array(content.utf8), mode: mode) {
                    for path in written { unlink(path) }
                    throw failure == .create(errorNumber: EEXIST) ? Self.exists(path) : CLIError(.cannotCreate, failure.message(path: path))
                }
                written.append(path)
            }
            print("Wrote \(out)/private.pem (PKCS#8, \(bits) bits, mode 600), \(out)/public.pem, \(out)/public.b64")
            print("Public key for the CMCC console (base64 DER):")
            print(try key.publicKey.base64DER())
        }
    }

    private static func exists(_ path: String) -> CLIError {
        CLIError(.cannotCreate, "'\(path)' exists; pass --force to overwrite (the old key will be lost)")
    }
}
