import PassgateCore
import HTTPTypes
import OpenSSLCrypto
import PassgateConfig

/// Authenticates `Bearer` API keys against the configured SHA-256 hashes.
struct ClientAuthenticator: Sendable {
    let clients: [ClientSettings]

    func authenticate(authorization: String?) throws(PassgateError) -> ClientSettings {
        guard let authorization, !authorization.isEmpty else {
            throw PassgateError(.unauthenticated, .request(field: "Authorization", problem: "missing"),
                                message: "Missing 'Authorization: Bearer <api key>' header.")
        }
        guard let key = Self.bearerKey(in: authorization) else {
            throw PassgateError(.unauthenticated, .request(field: "Authorization", problem: "not a bearer token"),
                                message: "The Authorization header must be 'Bearer <api key>'.")
        }
        let digest = (try? Digest.sha256(key)) ?? []
        // Compare against every client without stopping early, so timing says nothing about which matched.
        var match: ClientSettings?
        for client in clients where constantTimeEquals(client.apiKeySHA256, digest) {
            match = client
        }
        guard let match else {
            throw PassgateError(.unauthenticated, .request(field: "Authorization", problem: "unknown key"),
                                message: "Unknown API key.")
        }
        return match
    }

    /// The key of `Bearer <key>`: leading spaces skipped, the scheme in any letter case, the key
    /// everything after the space that ends it (1-512 bytes). Scanned as bytes: splitting the
    /// header into `Substring`s and lowercasing the scheme cost more than hashing the key.
    static func bearerKey(in header: String) -> [UInt8]? {
        let bytes = header.utf8
        guard var index = bytes.firstIndex(where: { $0 != UInt8(ascii: " ") }) else { return nil }
        for expected in "bearer".utf8 {
            guard index < bytes.endIndex, bytes[index] | 0x20 == expected else { return nil }
            index = bytes.index(after: index)
        }
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") else { return nil }
        let key = bytes[bytes.index(after: index)...]
        return (1...512).contains(key.count) ? Array(key) : nil
    }
}
