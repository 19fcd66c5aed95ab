import Logging
import PassgateConfig
import PassgateCore

/// The console's integration check: for an app and a pasted token, what Passgate would send
/// (explain: signed by the app's provider through the sign host `passgate sign` uses, sent
/// nowhere) or what the provider answered (exchange: through the same one-time-token exchange as
/// the REST API, as client `console`, so the replay cache, single flight and audit apply).
///
/// Nothing it returns holds the pasted token, a full phone number or a secret: every text passes
/// the form's ``CheckMask``, and secrets are shown as `passgate sign` shows them (lengths).
struct IntegrationCheck: Sendable {
    /// The client id the console's exchanges are made and audited as.
    static let client = "console"

    let tokenExchange: OneTimeTokenExchange
    let logger: Logger

    /// A request as Passgate would send it, masked.
    struct Explained: Sendable {
        var provider: String
        var operation: CarrierCall.Operation
        /// `POST https://host/path`.
        var requestLine: String
        var headers: [(name: String, value: String)]
        var body: String
        /// The provider's explanation: the string to sign, the signature, how the key is used.
        var details: [(label: String, value: String)]
    }

    /// The form's request as the app's provider signs it under `configuration` (the one served
    /// now: the apps of the last reload, the providers as started), masked.
    static func explain(_ form: IntegrationCheckForm, configuration: PassgateConfiguration) throws(IntegrationCheckForm.Problem) -> Explained {
        let host = SignHost(running: configuration)
        let declared = configuration.app(form.appId).flatMap { configuration.registry[$0.provider] }?.providerFields ?? []
        let mask = form.mask(declared: declared)
        let signed: SignedRequest
        do throws(SignHost.Refusal) {
            signed = try host.sign(appId: form.appId, token: form.token, phone: form.phoneNumber, fields: form.providerFields)
        } catch {
            throw Self.problem(error, mask: mask)
        }
        return Explained(
            provider: signed.provider, operation: signed.call.operation,
            requestLine: mask.apply("\(signed.call.request.method.rawValue) \(signed.baseURL)\(signed.call.request.path)"),
            headers: signed.headers(showSecrets: false, hint: "").map { ($0.name, mask.apply($0.value)) },
            body: mask.apply(signed.body),
            details: signed.explanation.details.map { ($0.label, mask.apply($0.value)) })
    }

    /// A sign host refusal as a problem with the form field it is about.
    static func problem(_ refusal: SignHost.Refusal, mask: CheckMask) -> IntegrationCheckForm.Problem {
        let field = switch refusal.subject {
        case .appId, .provider, .app: IntegrationCheckForm.Field.appId
        case .phone: IntegrationCheckForm.Field.phoneNumber
        case .providerFields: IntegrationCheckForm.Field.providerFields
        }
        let message = refusal.message { subject in
            switch subject {
            case .appId: "app"
            case .provider: "provider"
            case .phone: "phone number"
            case .providerFields: "providerFields."
            case .app: ""
            }
        }
        return .init(field: field, message: mask.apply(message.replacing("providerFields. ", with: "providerFields.")))
    }
}
