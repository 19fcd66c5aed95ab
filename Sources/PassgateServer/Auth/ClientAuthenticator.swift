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
        return try authenticate(key: key)
    }

    /// The client whose key is `key` (its SHA-256 compared with every client's): the console's
    /// sign-in form gives the admin key without an `Authorization` header.
    func authenticate(key: [UInt8]) throws(PassgateError) -> ClientSettings {
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
    /// everything after the space that ends it (1-512 bytes). Scanned over the header's contiguous
    /// bytes: splitting it into `Substring`s and lowercasing the scheme cost more than hashing the
    /// key, and stepping `String.UTF8View` indices cost half as much again.
    static func bearerKey(in header: String) -> [UInt8]? {
        var header = header
        return header.withUTF8 { bytes -> [UInt8]? in
            var index = 0
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
            for expected in "bearer ".utf8 {
                guard index < bytes.count, bytes[index] | (expected == 0x20 ? 0 : 0x20) == expected else { return nil }
                index += 1
            }
            let length = bytes.count - index
            return (1...512).contains(length) ? Array(UnsafeBufferPointer(rebasing: bytes[index...])) : nil
        }
    }
}
