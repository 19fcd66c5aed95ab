import OpenSSLCrypto

/// Where one configured secret came from and which value it is, never the value: what the
/// console's configuration page shows, so an operator can tell which secret a running instance
/// uses (and that a rotation took) without seeing it.
public struct SecretSource: Sendable, Equatable {
    /// The key's path in the file, `apps[0].secret`, `state.replayKey`.
    public let path: String
    /// `env:NAME`, `file:PATH`, `sandbox:NAME`, `literal (sandbox)`, or `literal (environment
    /// override)` for a literal given by a `PASSGATE_…` variable.
    public let source: String
    /// The first 8 bytes of the SHA-256 of the value, hex (for a key: of its public half, DER);
    /// empty for a sandbox key the loader did not load.
    public let fingerprint: String

    public init(path: String, source: String, fingerprint: String) {
        self.path = path
        self.source = source
        self.fingerprint = fingerprint
    }

    /// The first 8 bytes of `bytes`' SHA-256, as 16 hex digits.
    public static func fingerprint(of bytes: [UInt8]) -> String {
        ((try? Digest.sha256(bytes)).map { Hex.lowercase($0.prefix(8)) }) ?? ""
    }
}
