/// One app an emulated provider knows: what every provider's console holds (the appId, which
/// products are enabled, a quota), and the provider's own credentials for it.
public struct EmulatedApp: Sendable {
    /// The appid tokens are minted for: the carrier's appid, compared exactly (a stray space makes
    /// it unknown, as at the carrier); for an aggregator, the name Passgate's app has.
    public var appId: String
    /// The provider whose server this app lives on (its ``ProviderEmulator/providerID``).
    public var provider: String
    /// The provider's credentials for the app, read only by that provider's emulator.
    public var credentials: any EmulatedCredentials
    /// Whether the phone-number product is enabled; the provider's own code refuses it otherwise.
    public var loginEnabled: Bool
    /// Whether number verification is enabled.
    public var verifyEnabled: Bool
    /// Remaining billable calls (`nil` = unlimited), shared by both products.
    public var quota: Int?

    /// An app; every capability is on and the quota unlimited unless said otherwise.
    public init(
        appId: String, provider: String, credentials: any EmulatedCredentials, loginEnabled: Bool = true, verifyEnabled: Bool = true,
        quota: Int? = nil
    ) {
        self.appId = appId
        self.provider = provider
        self.credentials = credentials
        self.loginEnabled = loginEnabled
        self.verifyEnabled = verifyEnabled
        self.quota = quota
    }

    /// Changes the credentials when they are `type` (a misconfigured console in a test); others stay.
    public mutating func changeCredentials<Credentials: EmulatedCredentials>(_ type: Credentials.Type, _ change: (inout Credentials) -> Void) {
        guard var own = credentials as? Credentials else { return }
        change(&own)
        credentials = own
    }

    /// Whether `product` is enabled for this app.
    public func isEnabled(_ product: SandboxProduct) -> Bool {
        product == .login ? loginEnabled : verifyEnabled
    }
}

/// A provider's credentials for one emulated app.
public protocol EmulatedCredentials: Sendable {
    /// The key the provider knows the app by when it is not the appid (an aggregator's appKey or
    /// AccessKey ID), else nil. It has one secret at the provider: of several apps sharing it, the
    /// first listed is the provider's, and the others' credentials are wrong, as they would be there.
    var accountKey: String? { get }
}
