import Foundation
import OpenSSLCrypto
import PassgateCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `sandbox:NAME` key could not be had; names the file, never the key.
public struct SandboxKeyError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The keys behind `privateKey: "sandbox:NAME"`: `<directory>/NAME.pem`, generated (RSA 2048,
/// PKCS#8 PEM) on first use and reused afterwards, so a fresh checkout runs with no setup and a
/// restarted sandbox keeps its keys. Directory mode 0700, file mode 0600.
public enum SandboxKeyStore {
    /// Sandbox key names: what may follow `sandbox:` (it becomes a file name).
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first.isNumber, name.count <= 64 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
    }

    /// Where the key `name` lives in `directory`.
    public static func path(named name: String, in directory: String) -> String {
        URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent("\(name).pem").path
    }

    /// Loads the key `name` from `directory`, generating it first when the file does not exist.
    ///
    /// Safe against a concurrent first start: the new key is written to a private temporary
    /// file and hard-linked into place, so exactly one generated key wins and everyone loads it.
    public static func key(named name: String, in directory: String) throws(SandboxKeyError) -> RSAPrivateKey {
        precondition(isValidName(name), "invalid sandbox key name")
        let path = path(named: name, in: directory)
        if FileManager.default.fileExists(atPath: path) { return try load(path) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SandboxKeyError("cannot create the sandbox key directory '\(directory)': \(error.localizedDescription)")
        }
        let pem: String
        let key: RSAPrivateKey
        do {
            key = try RSAPrivateKey.generate(bits: 2048)
            pem = try key.pkcs8PEM()
        } catch {
            throw SandboxKeyError("cannot generate the sandbox key '\(path)': \(error)")
        }
        let temporary = "\(path).\(getpid()).\(UUID().uuidString).tmp"
        try createFile(temporary, containing: pem)
        defer { unlink(temporary) }
        if link(temporary, path) == 0 { return key }
        let linkError = errno
        if linkError == EPERM || linkError == ENOTSUP || linkError == EOPNOTSUPP {
            // A file system without hard links: rename instead (not exclusive, but atomic).
            if rename(temporary, path) == 0 { return key }
        }
        guard linkError == EEXIST else {
            throw SandboxKeyError("cannot create the sandbox key '\(path)': \(String(cString: strerror(linkError)))")
        }
        return try load(path)  // another process generated it first
    }

    private static func load(_ path: String) throws(SandboxKeyError) -> RSAPrivateKey {
        let text: String
        do {
            text = try SecretReference.readText(path)
        } catch {
            throw SandboxKeyError("sandbox key \(error.description)")
        }
        do {
            return try RSAPrivateKey(text: text)
        } catch let error as OpenSSLError {
            throw SandboxKeyError("sandbox key '\(path)' is not usable (\(error.reason)); delete it and a new one is generated")
        } catch {
            throw SandboxKeyError("sandbox key '\(path)' is not usable (\(error)); delete it and a new one is generated")
        }
    }

    /// Creates `path` (which must not exist) with mode 0600 and writes `text` to it.
    private static func createFile(_ path: String, containing text: String) throws(SandboxKeyError) {
        if let failure = DescriptorOutput.createFile(path, containing: Array(text.utf8), mode: 0o600) {
            throw SandboxKeyError(failure.message(path: path))
        }
    }
}
