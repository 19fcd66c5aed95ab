/// The sandbox's token ledger as emulators use it: the host mints the tokens, the emulator spends
/// them. Every method is short and safe to call from any thread.
public protocol EmulatorLedger: Sendable {
    /// Records a request id (a msgid, a nonce) under `key`; `false` if it was seen within the
    /// last 10 minutes. Prefix the key with the provider and operation so ids do not collide.
    func noteMessageID(_ key: String, now: Int64) -> Bool
    /// Spends `token` if it is valid now.
    func consume(_ token: String, now: Int64) -> TokenLookup
    /// Charges one billable call to `appId`; `false` when its quota is used up.
    func charge(appId: String) -> Bool
}

/// What the sandbox knows about one minted token.
public struct TokenRecord: Sendable {
    public let appId: String
    public let phoneNumber: String
    public let product: SandboxProduct
    public let expiresAtMs: Int64

    public init(appId: String, phoneNumber: String, product: SandboxProduct, expiresAtMs: Int64) {
        self.appId = appId
        self.phoneNumber = phoneNumber
        self.product = product
        self.expiresAtMs = expiresAtMs
    }
}

/// What spending a token found.
public enum TokenLookup: Sendable {
    /// The token was valid and is now spent.
    case consumed(TokenRecord)
    /// Never minted, already spent, or forgotten.
    case unknown
    /// Minted but past its lifetime.
    case expired
}

/// Why an aggregator refuses a token it has looked at (and so spent), in the order they check.
public enum TokenRefusal: Error, Sendable {
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
