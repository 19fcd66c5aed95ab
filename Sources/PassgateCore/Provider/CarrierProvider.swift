import OpenSSLCrypto

/// A provider Passgate can exchange tokens with: CMCC, and every aggregator after it. It owns what
/// differs between providers - reading and validating its apps' settings, building and signing
/// requests, reading replies, mapping its codes, decrypting the number, saying what is billable.
/// Everything shared stays above it, in the server: the replay cache and single flight, fail-over
/// only when provably unsent, the circuit breaker and call cap, audit, metrics, logs, redaction.
///
/// A provider is registered once (`ProviderRegistry`) and never sees the network: it prepares a
/// call, the server sends it (`PreparedCall.send`), and the call's `interpret` reads the reply.
public protocol CarrierProvider: Sendable {
    /// The provider's id in configs, metrics, logs, audit lines and error envelopes (`cmcc`).
    var id: String { get }
    /// The keys an app entry of this provider may carry besides `appId` and `provider`.
    var appKeys: [String] { get }
    /// The app entry validated into this provider's settings, at load time; nil when `fields`
    /// reported a problem (every problem, with its key, so `check-config` lists them all).
    func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)?
    /// The values beyond the token this provider reads from a request's `providerFields`
    /// (``ProviderField``); none unless it says so. The server refuses a request that sends a key
    /// not declared here, lacks a required one or has one in the wrong format, before any call;
    /// the checked values reach the provider as `CallContext.providerFields`.
    var providerFields: [ProviderField] { get }
    /// A signed phone-number request for `token` and how to read its reply.
    func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome>
    /// A signed number-verification request and how to read its reply. Throws before any call
    /// when the app cannot verify (no key for it): `app_not_enabled`.
    func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome>
    /// How the sandbox plays this provider's server; nil (the default) when it does not.
    var emulator: (any ProviderEmulator)? { get }
}

extension CarrierProvider {
    public var emulator: (any ProviderEmulator)? { nil }
}

/// One app's settings, as its provider validated them: credentials resolved and checked.
///
/// An app holds its credentials in clear, so it prints only its id (``RedactedDescription``);
/// a provider may name more safe facts (a sign mode) by implementing `redactedFields`.
public protocol ProviderApp: RedactedDescription, Sendable {
    var appId: String { get }
    /// A digest of the settings and credentials (a key by its public half): two loads of the same
    /// files compare equal, a rotated secret does not. Reloads compare it.
    var fingerprint: [UInt8] { get }
}

extension ProviderApp {
    public var redactedFields: [(label: String, value: String)] { [("appId", appId)] }
}

/// What a call may use besides the app and the token.
public struct CallContext: Sendable {
    /// Timestamps and nonces come from it (tests pin it).
    public var clock: any PassgateClock
    /// An id Passgate generated for this call, for providers that take and echo an id of ours
    /// (`exID`, `outId`). Never the caller's `X-Request-Id`: callers do not choose what a carrier sees.
    public var requestId: String
    /// The request's `providerFields`, checked against ``CarrierProvider/providerFields``:
    /// every required one is here, in its format. Never to be logged (a value may be a credential).
    public var providerFields: ProviderFields

    public init(clock: any PassgateClock = SystemClock(), requestId: String, providerFields: ProviderFields = .none) {
        self.clock = clock
        self.requestId = requestId
        self.providerFields = providerFields
    }
}

/// How a provider reads its app entry: implemented by the configuration reader, which resolves
/// secrets (`env:`, `file:`, sandbox literals) and reports problems with key paths and lines.
public protocol AppFieldReader: AnyObject {
    /// The entry's `appId` (already checked: 1-64 letters, digits, `-`, `_`, `.`).
    var appId: String { get }
    /// Whether the embedded sandbox is enabled (generated `sandbox:` keys are allowed then).
    var sandboxEnabled: Bool { get }
    /// Whether the entry sets `key` at all.
    func isPresent(_ key: String) -> Bool
    /// `apps[2].secret`, for messages.
    func path(of key: String) -> String
    /// The value of `key` when it is one of `options`; reported otherwise.
    func choice(_ key: String, _ options: [String]) -> String?
    /// A plain (not secret) text value, as written (a URL, a path); reported when not a string.
    func text(_ key: String) -> String?
    /// A resolved text secret; `purpose` says what a stray space would break.
    func secret(_ key: String, purpose: String) -> String?
    /// A resolved RSA private key (PEM or base64 DER, PKCS#1 or #8; `sandbox:NAME` in the sandbox).
    func privateKey(_ key: String) -> RSAPrivateKey?
    /// Records a problem at `key` (its path and line are added).
    func report(_ key: String, _ message: String)
    /// Whether any problem was reported for this app entry so far.
    var hasProblems: Bool { get }
}

extension CarrierProvider {
    /// Most providers read nothing beyond the token.
    public var providerFields: [ProviderField] { [] }

    /// `app` as this provider's own app type. The registry routes by the app's provider, so
    /// another kind of app here is a bug: an `internal_error`, never a crash.
    public func own<App: ProviderApp>(_ app: any ProviderApp, as type: App.Type) throws(PassgateError) -> App {
        guard let own = app as? App else { throw .internalError("app \(app.appId) reached the \(id) provider but is not one of its apps") }
        return own
    }
}
