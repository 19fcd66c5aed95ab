import Foundation
import OpenSSLCrypto
import PassgateConfig

/// RSA keys for tests, generated once per test process and shared by every suite.
///
/// Why shared: a 2048-bit generation takes about 0.4 s of CPU here, and it runs on the thread
/// that asks, usually one of the two threads of Swift's cooperative pool on the CI machine. When
/// every suite generated its own keys (about fifty generations a run), both pool threads spent
/// the first 15 s of the test run in `BN_gcd`, and tests waiting for other tasks' progress
/// (`eventually`) timed out. Tests of generation itself still call `RSAPrivateKey.generate`.
///
/// Two keys of each size, so a test can hold a key and a different one ("a wrong key").
public enum TestRSAKeys {
    /// A 2048-bit key: an app's signing or decryption key.
    public static let primary: RSAPrivateKey = generate(bits: 2048)
    /// A second 2048-bit key, different from ``primary``: the wrong key, a stranger's key.
    public static let secondary: RSAPrivateKey = generate(bits: 2048)
    /// A 1024-bit key (aggregators' consoles still issue them).
    public static let primary1024: RSAPrivateKey = generate(bits: 1024)
    /// A second 1024-bit key, different from ``primary1024``.
    public static let secondary1024: RSAPrivateKey = generate(bits: 1024)

    /// ``primary`` as PKCS#8 PEM, for tests that need it in a file (a `file:` secret, a seeded
    /// `sandbox:NAME` key).
    public static let primaryPEM: String = pem(of: primary)

    /// Writes ``primary`` as every sandbox key that `yaml` names (`sandbox:NAME`) into
    /// `directory` (created when missing), so loading that configuration with that key directory
    /// reads the keys instead of generating one per name. For tests whose subject is not the
    /// generation itself; returns the names seeded.
    @discardableResult
    public static func seedSandboxKeys(referencedIn yaml: String, in directory: String) throws -> [String] {
        let names = Set(yaml.matches(of: /sandbox:([A-Za-z0-9._-]+)/).map { String($0.output.1) })
            .filter(SandboxKeyStore.isValidName).sorted()
        guard !names.isEmpty else { return [] }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in names {
            let path = SandboxKeyStore.path(named: name, in: directory)
            guard FileManager.default.createFile(atPath: path, contents: Data(primaryPEM.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        }
        return names
    }

    /// A fixture that cannot be made leaves nothing to test: stop with OpenSSL's reason.
    private static func generate(bits: Int) -> RSAPrivateKey {
        do {
            return try RSAPrivateKey.generate(bits: bits)
        } catch {
            fatalError("cannot generate a \(bits)-bit RSA test key: \(error)")
        }
    }

    private static func pem(of key: RSAPrivateKey) -> String {
        do {
            return try key.pkcs8PEM()
        } catch {
            fatalError("cannot write the RSA test key as PEM: \(error)")
        }
    }
}
