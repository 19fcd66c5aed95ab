import Synchronization

/// Why an aggregator refuses a token it has looked at (and so spent), in the order they check.
enum TokenRefusal: Error, Sendable {
    /// Never minted, already used, or expired.
    case unknown
    /// Minted for another app.
    case otherApp
    /// Minted for the other product (login vs number verification).
    case otherProduct
    /// The app's capability for this product is off.
    case disabled
    /// The app's quota is used up.
    case noQuota
}

extension SandboxEngine {
    /// Spends `token` for `app` on `endpoint` as the aggregators do: the token is gone whatever
    /// follows, then its app, its product, the app's capability and its quota decide. Each
    /// provider answers a refusal with its own code.
    func spend(_ token: String, for app: SandboxApp, endpoint: CarrierOutcome.Endpoint, now: Int64) -> Result<TokenRecord, TokenRefusal> {
        guard case .consumed(let record) = ledger.withLock({ $0.consume(token, now: now) }) else { return .failure(.unknown) }
        guard record.appId == app.appId else { return .failure(.otherApp) }
        guard record.product == (endpoint == .login ? .login : .verify) else { return .failure(.otherProduct) }
        guard endpoint == .login ? app.loginEnabled : app.verifyEnabled else { return .failure(.disabled) }
        guard ledger.withLock({ $0.charge(appId: app.appId) }) else { return .failure(.noQuota) }
        return .success(record)
    }
}
