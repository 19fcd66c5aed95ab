/// A provider's server as the sandbox plays it: the paths it serves, how it checks a request
/// (signature, timestamps, ids, allow list, the body's fields), how it spends the one-time token
/// and which codes and reply bodies it answers with. It lives in the provider's own folder, next to
/// its client, so the sandbox (`CarrierSandbox`) is a host that knows no provider: it routes by
/// ``routes``, keeps the token ledger, applies faults and counts.
///
/// A provider brings one through ``CarrierProvider/emulator``; a provider without one still works
/// against its real server, the sandbox just does not answer for it.
public protocol ProviderEmulator: Sendable {
    /// The provider's id, as its ``CarrierProvider/id``.
    var providerID: String { get }
    /// The paths this provider's server answers on, and the product each is for.
    var routes: [EmulatorRoute] { get }
    /// ``routes`` and the paths `apps` name for themselves (an app whose settings give its own
    /// endpoint path), read when the sandbox starts. Default: ``routes``.
    func routes(for apps: [EmulatedApp]) -> [EmulatorRoute]
    /// The console's side of one of this provider's configured apps: the credentials the
    /// provider would hold for it (the public half of each private key). nil for another
    /// provider's app.
    func emulatedApp(_ app: any ProviderApp) -> EmulatedApp?
    /// Checks `call` as the provider does, spends its token through `call.ledger`, and decides the
    /// answer (before any fault is applied).
    func answer(_ call: EmulatorCall) -> any EmulatorAnswer
    /// Why `code` cannot be forced by `PUT /sandbox/faults` for this provider (it does not have
    /// the shape of its codes), or nil when it can. The message names `resultCode`.
    func forcedCodeProblem(_ code: String) -> String?
}

/// One path an emulated provider answers on.
public struct EmulatorRoute: Sendable {
    /// The path without query string (`/unisdk/rsapi/loginTokenValidate`).
    public var path: String
    /// The product the path serves. An RPC-style endpoint that names its operation in the body
    /// reads it there and may answer for the other product.
    public var product: SandboxProduct
    /// The one method the path accepts, answered with HTTP 405 otherwise; nil when the provider
    /// answers a wrong method with a code of its own (so ``ProviderEmulator/answer(_:)`` sees it).
    public var method: String?

    /// A route.
    public init(path: String, product: SandboxProduct, method: String? = "POST") {
        self.path = path
        self.product = product
        self.method = method
    }
}

/// What a token was minted for: the SDK issues different tokens for one-click login and for
/// number verification, and the carrier refuses one for the other (105018 / 606).
public enum SandboxProduct: String, Sendable, CaseIterable, Codable {
    /// The phone number from a token (CMCC's `loginTokenValidate`).
    case login
    /// Whether a number is the phone's own (CMCC's `tokenValidate`).
    case verify
}

extension ProviderEmulator {
    public func routes(for apps: [EmulatedApp]) -> [EmulatorRoute] { routes }
}
