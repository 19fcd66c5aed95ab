/// One call `passgate sign` prepared through a provider's own `phoneNumber` or `verify`, for the
/// provider to explain: the signed request and what went into it besides the app.
public struct ExplainedCall: Sendable {
    public var operation: CarrierCall.Operation
    public var token: String
    /// The number checked, for a verification.
    public var phoneNumber: String?
    public var request: ProviderRequest

    public init(operation: CarrierCall.Operation, token: String, phoneNumber: String?, request: ProviderRequest) {
        self.operation = operation
        self.token = token
        self.phoneNumber = phoneNumber
        self.request = request
    }
}

/// What `passgate sign` prints under a signed request: enough to compare with what the provider
/// expects after it rejected a signature, never a secret's value.
public struct RequestExplanation: Sendable {
    /// Labelled lines (`signed string`, `sign`): the exact input a signature covers, with any
    /// secret in it replaced by its length.
    public var details: [(label: String, value: String)]
    /// The headers whose values are credentials (a Basic `Authorization`): masked unless the
    /// operator asks for them.
    public var secretHeaders: [String]

    public init(details: [(label: String, value: String)] = [], secretHeaders: [String] = []) {
        self.details = details
        self.secretHeaders = secretHeaders
    }

    /// For a provider without an explain part: no detail, and every header but `Content-Type`
    /// treated as a credential, since nothing says which are.
    public static func cautious(_ request: ProviderRequest) -> RequestExplanation {
        RequestExplanation(secretHeaders: request.headers.map(\.name).filter { !ASCIICase.equals($0, lowercased: "content-type") })
    }
}

/// A provider's explain part, in its own `<Name>Provider+Explain.swift`: what `passgate sign` and
/// `decrypt-msisdn` ask of it. The request always comes from the provider's production
/// `phoneNumber`/`verify`, so what `sign` prints is what the server sends.
public protocol RequestExplaining: CarrierProvider {
    /// The lines that explain `call` for `app` (the provider's own app: `own(app, as:)`).
    func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation
    /// The number in `ciphertext`, as this provider sends it encrypted for `app`, decrypted as a
    /// reply's would be; nil when it sends `app`'s numbers in clear (or has no key for them).
    func decryptNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String?
}

extension RequestExplaining {
    public func decryptNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String? { nil }
}

extension CarrierProvider {
    /// This provider's explanation of `call`: its own when it has an explain part, else
    /// ``RequestExplanation/cautious(_:)``.
    public func explanation(of call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let explaining = self as? any RequestExplaining else { return .cautious(call.request) }
        return explaining.explain(call, app: app)
    }

    /// `ciphertext` decrypted by this provider's explain part for `app`; nil when it has none or
    /// sends the numbers in clear.
    public func decryptedNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String? {
        guard let explaining = self as? any RequestExplaining else { return nil }
        return try explaining.decryptNumber(ciphertext, app: app)
    }
}
