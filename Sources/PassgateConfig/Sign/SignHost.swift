import PassgateCore

/// What `passgate sign` and the console's integration check do for any registered provider: the app's provider prepares the call
/// through its production `phoneNumber`/`verify` (so the signature is the one the server sends)
/// and explains it from its own explain part. Nothing here knows a provider; a test's provider
/// (`EchoProvider`) goes through the same host.
public struct SignHost: Sendable {
    /// A refusal: what it is about and the problem, so each front end names its own input
    /// (`passgate sign` its options, the console its form's fields).
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// The input at fault; `app` when it is the configured app itself.
        public enum Subject: Sendable, Equatable {
            case appId, provider, phone, providerFields, app
        }

        public let subject: Subject
        /// The problem, without the input's name: `300011 is not a configured app (apps: …)`.
        public let problem: String

        /// The problem after the input's name (`name(subject)`; none when it names nothing).
        public func message(naming name: (Subject) -> String) -> String {
            let named = name(subject)
            return named.isEmpty ? problem : "\(named) \(problem)"
        }

        /// As `passgate sign` says it: the option's name, then the problem.
        public var description: String {
            message { subject in
                switch subject {
                case .appId: "--app-id"
                case .provider: "--provider"
                case .phone: "--phone"
                case .providerFields: "--field"
                case .app: ""
                }
            }
        }
    }

    public let configuration: PassgateConfiguration

    /// `configuration` as loaded (its registry decides the providers); with the sandbox enabled,
    /// the providers it emulates point at it, as `serve` points them.
    public init(configuration: PassgateConfiguration) {
        var configuration = configuration
        if configuration.sandbox.enabled { configuration.pointProvidersAtSandbox(port: configuration.sandbox.port) }
        self.configuration = configuration
    }

    /// The configuration a running server serves, as it is: its providers already point where
    /// its calls go (the embedded sandbox's real port, when `sandbox.port` was 0).
    public init(running configuration: PassgateConfiguration) {
        self.configuration = configuration
    }

    /// The signed request for `token` (and `phone`, for a verification) of app `appId`, with its
    /// provider's explanation. `provider`, when given, must be the app's. `requestId` is the id sent
    /// to providers that take one of ours; nil: a fresh one, as for a served request. `fields` are
    /// the request's `providerFields`, held to the provider's declaration as the server holds them.
    public func sign(
        appId: String, provider: String? = nil, token: String, phone: String?, requestId: String? = nil, fields: [String: String] = [:]
    ) throws(Refusal) -> SignedRequest {
        guard let app = configuration.app(appId) else {
            throw Refusal(subject: .appId, problem: "\(appId) is not a configured app (apps: \(configuration.apps.map(\.appId).joined(separator: ", ")))")
        }
        if let provider, provider != app.provider { throw Refusal(subject: .provider, problem: "\(provider): app \(appId) is a \(app.provider) app") }
        guard let carrier = configuration.registry[app.provider] else {
            throw Refusal(subject: .app, problem: "app \(appId): provider \(app.provider) is not registered (supported: \(configuration.registry.ids.joined(separator: ", ")))")
        }
        if let phone, !MSISDN.isMainland(phone) {
            throw Refusal(subject: .phone, problem: "must be an 11-digit mainland mobile number (1[3-9] + 9 digits), got '\(phone)'")
        }
        let providerFields: ProviderFields
        do throws(PassgateError) {
            providerFields = try ProviderFields(checking: fields, against: carrier.providerFields, provider: app.provider)
        } catch {
            // `providerFields.processId: …` becomes `--field processId: …`.
            throw Refusal(subject: .providerFields, problem: String(error.message.dropFirst(ProviderFields.member.count + 1)))
        }
        let context = CallContext(requestId: requestId ?? MessageID.make(), providerFields: providerFields)
        let request: ProviderRequest
        do throws(PassgateError) {
            if let phone {
                request = try carrier.verify(app: app.settings, token: token, phoneNumber: phone, context: context).request
            } else {
                request = try carrier.phoneNumber(app: app.settings, token: token, context: context).request
            }
        } catch {
            // An app that cannot make this call (verification without its key): the provider's own words.
            throw Refusal(subject: .app, problem: "app \(appId): \(error.message)")
        }
        let call = ExplainedCall(operation: phone == nil ? .phoneNumber : .verify, token: token, phoneNumber: phone, request: request)
        return SignedRequest(
            provider: app.provider, baseURL: request.baseURL ?? Self.baseURL(configuration.providers[app.provider], verify: phone != nil), call: call,
            explanation: carrier.explanation(of: call, app: app.settings))
    }

    /// The first base URL of the operation's list (`verifyBaseURLs` for a verification, when set).
    static func baseURL(_ provider: ProviderSettings?, verify: Bool) -> String {
        guard let provider else { return "" }
        return (verify ? provider.verifyBaseURLs.first : nil) ?? provider.baseURLs.first ?? ""
    }
}
