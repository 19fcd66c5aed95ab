/// One call to an emulated provider, with what the host knows at that moment: the apps, the
/// sandbox clock, the runtime allow list, and the ledger the token is spent through.
public struct EmulatorCall: Sendable {
    /// The request.
    public var request: EmulatorRequest
    /// The product of the route the request came in on.
    public var product: SandboxProduct
    /// Sandbox "now", in milliseconds since the epoch.
    public var now: Int64
    /// The apps the sandbox emulates, by appId (every provider's: check ``EmulatedApp/provider``).
    public var apps: [String: EmulatedApp]
    /// Whether the peer passes the runtime client allow list (always true without one).
    public var isClientAllowed: Bool
    /// Largest accepted distance of a request's timestamp from ``now``, in seconds.
    public var maxClockSkewSeconds: Int
    /// Where tokens are spent, msgids remembered and quotas charged.
    public var ledger: any EmulatorLedger

    /// A call.
    public init(
        request: EmulatorRequest, product: SandboxProduct, now: Int64, apps: [String: EmulatedApp], isClientAllowed: Bool,
        maxClockSkewSeconds: Int, ledger: any EmulatorLedger
    ) {
        self.request = request
        self.product = product
        self.now = now
        self.apps = apps
        self.isClientAllowed = isClientAllowed
        self.maxClockSkewSeconds = maxClockSkewSeconds
        self.ledger = ledger
    }

    /// `provider`'s app called `appId`, or nil (unknown, or another provider's).
    public func app(_ appId: String, of provider: String) -> EmulatedApp? {
        guard let app = apps[appId], app.provider == provider else { return nil }
        return app
    }

    /// `provider`'s apps whose credentials are `Credentials` and satisfy `matches` (an aggregator
    /// finds the app by its appKey, not by an appid in the request).
    public func firstApp<Credentials: EmulatedCredentials>(
        of provider: String, _ type: Credentials.Type, where matches: (Credentials) -> Bool
    ) -> (app: EmulatedApp, credentials: Credentials)? {
        for app in apps.values where app.provider == provider {
            if let credentials = app.credentials as? Credentials, matches(credentials) { return (app, credentials) }
        }
        return nil
    }

    /// Why the 17-digit Beijing time `text` is unacceptable now, or `nil`.
    public func timeProblem(_ text: String, field: String) -> String? {
        EmulatorChecks.timeProblem(text, field: field, now: now, maxSkewSeconds: maxClockSkewSeconds)
    }

    /// Spends `token` for `app` as the aggregators do: the token is gone whatever follows, then
    /// its app, its product, the app's capability and its quota decide. Each provider answers a
    /// refusal with its own code.
    public func spend(_ token: String, for app: EmulatedApp) -> Result<TokenRecord, TokenRefusal> {
        guard case .consumed(let record) = ledger.consume(token, now: now) else { return .failure(.unknown) }
        guard record.appId == app.appId else { return .failure(.otherApp) }
        guard record.product == product else { return .failure(.otherProduct) }
        guard app.isEnabled(product) else { return .failure(.disabled) }
        guard ledger.charge(appId: app.appId) else { return .failure(.noQuota) }
        return .success(record)
    }
}
