import Foundation
import OpenSSLCrypto

/// What the loader may do with the files a configuration names: read `file:` secrets and
/// `caFile`, ask whether the audit path is a directory, load or generate `sandbox:NAME` keys.
///
/// ``system`` is the file system. ``refusing`` reads and writes nothing, for a document nobody
/// vouches for (the configuration fuzzer): its `file:/dev/zero` must not be read, and its
/// `sandbox.keyDirectory` must not get keys written into it. What it refuses is reported as any
/// unreadable file is.
public struct ConfigurationFiles: Sendable {
    /// The bytes of the file at `path`; `nil` when it cannot be read (missing, no permission).
    public var contents: @Sendable (_ path: String) -> [UInt8]?
    /// Whether `path` is an existing directory.
    public var isDirectory: @Sendable (_ path: String) -> Bool
    /// The `sandbox:NAME` key `name` in `directory`, generated on first use.
    public var sandboxKey: @Sendable (_ name: String, _ directory: String) throws(SandboxKeyError) -> RSAPrivateKey

    public init(
        contents: @escaping @Sendable (_ path: String) -> [UInt8]?, isDirectory: @escaping @Sendable (_ path: String) -> Bool,
        sandboxKey: @escaping @Sendable (_ name: String, _ directory: String) throws(SandboxKeyError) -> RSAPrivateKey
    ) {
        self.contents = contents
        self.isDirectory = isDirectory
        self.sandboxKey = sandboxKey
    }

    /// The file system, and ``SandboxKeyStore`` for sandbox keys.
    public static let system = ConfigurationFiles(
        contents: { path in
            guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else { return nil }
            return [UInt8](data)
        },
        isDirectory: { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        },
        sandboxKey: { name, directory throws(SandboxKeyError) in try SandboxKeyStore.key(named: name, in: directory) }
    )

    /// Nothing can be read, nothing is a directory, no sandbox key is loaded or generated.
    public static let refusing = ConfigurationFiles(
        contents: { _ in nil },
        isDirectory: { _ in false },
        sandboxKey: { name, _ throws(SandboxKeyError) in
            throw SandboxKeyError("sandbox:\(name) is not loaded: this load reads and writes no files")
        }
    )

    /// The file at `path` as UTF-8 text (keys, secrets, the configuration itself).
    public func readText(_ path: String) throws(SecretError) -> String {
        guard let bytes = contents(path) else {
            throw SecretError("cannot read '\(path)' (missing file or no permission)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SecretError("'\(path)' is not a UTF-8 text file (give PEM or base64, not binary DER)")
        }
        return text
    }
}
