import CarrierKit
import HTTPTypes
import OpenSSLCrypto
import PassgateConfig

/// Who may call the API. A protocol so tests and future key stores can stand in.
protocol ClientAuthenticating: Sendable {
    /// The client behind an `Authorization` header value, or `unauthenticated`.
    func authenticate(authorization: String?) throws(PassgateError) -> ClientSettings
}

/// Authenticates `Bearer` API keys against the configured SHA-256 hashes.
struct ClientAuthenticator: ClientAuthenticating {
    let clients: [ClientSettings]

    func authenticate(authorization: String?) throws(PassgateError) -> ClientSettings {
        guard let authorization, !authorization.isEmpty else {
            throw PassgateError(.unauthenticated, .request(field: "Authorization", problem: "missing"),
                                message: "Missing 'Authorization: Bearer <api key>' header.")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", (1...512).contains(parts[1].utf8.count) else {
            throw PassgateError(.unauthenticated, .request(field: "Authorization", problem: "not a bearer token"),
                                message: "The Authorization header must be 'Bearer <api key>'.")
        }
        let digest = (try? Digest.sha256(Array(parts[1].utf8))) ?? []
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
}
