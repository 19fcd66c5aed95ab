import Logging
import PassgateConfig
import PassgateCore

extension IntegrationCheck {
    /// What the provider answered to one attempt, masked and cut to a bounded snippet.
    struct ShownReply: Sendable {
        /// The URL the attempt went to.
        var url: String
        /// nil when no reply came (then `failure` says why).
        var status: Int?
        var contentType: String?
        var body: String
        /// Whether the body shown is only the start of it.
        var cut: Bool
        var failure: String?
    }

    /// An error as the page explains it: the error model's entry, and the provider's code.
    struct ExplainedError: Sendable {
        var code: PassgateError.Code
        var httpStatus: Int
        /// What the code means in the error model (docs/errors.md).
        var meaning: String
        /// This answer's message: the provider's code, its meaning in the provider's table, what to check.
        var message: String
        var action: PassgateError.Action
        var retryable: Bool
        var carrier: CarrierAnswer?
    }

    /// What an exchange did: the provider's raw replies, and the answer the REST API would give.
    struct Exchanged: Sendable {
        var operation: CarrierCall.Operation
        var replies: [ShownReply]
        /// Whether the answer came from the replay cache: the provider was not called again.
        var replayed: Bool
        /// The REST API's status and JSON body for this exchange, the number masked.
        var status: Int
        var answer: String
        var error: ExplainedError?
    }

    /// A reply body is shown up to this many characters (after masking).
    static let shownBodyCharacters = 2048

    /// Sends the form's token through the exchange for the app of `configuration` (the one
    /// served now), capturing the provider's replies for this call alone.
    func exchange(
        _ form: IntegrationCheckForm, configuration: PassgateConfiguration, requestId: String
    ) async throws(IntegrationCheckForm.Problem) -> Exchanged {
        guard let app = configuration.app(form.appId), let provider = configuration.registry[app.provider] else {
            let apps = configuration.apps.map(\.appId).joined(separator: ", ")
            throw .init(field: IntegrationCheckForm.Field.appId, message: "The app is not configured (apps: \(apps)).")
        }
        let fields: ProviderFields
        do throws(PassgateError) {
            fields = try ProviderFields(checking: form.providerFields, against: provider.providerFields, provider: provider.id)
        } catch {
            throw .init(field: IntegrationCheckForm.Field.providerFields, message: form.mask(declared: provider.providerFields).apply(error.message))
        }
        var logger = logger
        logger[metadataKey: "requestId"] = .string(requestId)
        logger[metadataKey: "client"] = .string(Self.client)
        let capture = CarrierReplyCapture()
        let result: Result<(json: JSONObjectWriter, number: String?), PassgateError>
        let replayed: Bool
        if let phone = form.phoneNumber {
            let answer = await capture.capturing {
                await tokenExchange.verify(client: Self.client, app: app, token: form.token, phoneNumber: phone, fields: fields, logger: logger)
            }
            replayed = answer.replayed
            result = answer.result.map { outcome in
                var json = JSONObjectWriter()
                VerifyResponse(
                    requestId: requestId, appId: app.appId, provider: app.provider, result: outcome.result, carrierTaskId: outcome.carrierTaskId,
                    replayed: answer.replayed, reference: nil
                ).writeJSON(into: &json)
                return (json, nil)
            }
        } else {
            let answer = await capture.capturing {
                await tokenExchange.phoneNumber(client: Self.client, app: app, token: form.token, fields: fields, logger: logger)
            }
            replayed = answer.replayed
            result = answer.result.map { outcome in
                var json = JSONObjectWriter()
                // The number masked in both places: the page never holds it whole.
                PhoneNumberResponse(
                    requestId: requestId, appId: app.appId, provider: app.provider, phoneNumber: outcome.maskedPhoneNumber,
                    maskedPhoneNumber: outcome.maskedPhoneNumber, carrierTaskId: outcome.carrierTaskId, riskScore: outcome.riskScore,
                    replayed: answer.replayed, reference: nil
                ).writeJSON(into: &json)
                return (json, outcome.phoneNumber)
            }
        }
        var mask = form.mask(declared: provider.providerFields)
        mask.revealsNoOpaqueValue(decrypt: { [provider, settings = app.settings] in try? provider.decryptedNumber($0, app: settings) })
        if case .success(let value) = result, let number = value.number { mask.hide(number, as: MSISDN.mask(number)) }
        let replies = capture.captured.map { Self.shown($0, mask: mask) }
        switch result {
        case .success(var value):
            return Exchanged(
                operation: form.phoneNumber == nil ? .phoneNumber : .verify, replies: replies, replayed: replayed, status: 200,
                answer: mask.apply(String(decoding: value.json.finish(), as: UTF8.self)), error: nil)
        case .failure(let error):
            var json = JSONObjectWriter()
            ErrorEnvelope(error: error, requestId: requestId).writeJSON(into: &json)
            return Exchanged(
                operation: form.phoneNumber == nil ? .phoneNumber : .verify, replies: replies, replayed: replayed, status: error.code.httpStatus,
                answer: mask.apply(String(decoding: json.finish(), as: UTF8.self)),
                error: ExplainedError(
                    code: error.code, httpStatus: error.code.httpStatus, meaning: error.code.defaultMessage, message: mask.apply(error.message),
                    action: error.action, retryable: error.retryable,
                    carrier: error.carrierAnswer.map { CarrierAnswer(provider: $0.provider, code: $0.code, message: $0.message.map(mask.apply)) }))
        }
    }

    /// One captured reply, masked, its body cut to ``shownBodyCharacters``.
    static func shown(_ reply: CarrierReplyCapture.Reply, mask: CheckMask) -> ShownReply {
        let body = mask.apply(String(decoding: reply.body, as: UTF8.self))
        let cut = reply.truncated || body.count > shownBodyCharacters
        return ShownReply(
            url: mask.apply(reply.url), status: reply.status, contentType: reply.contentType.map(mask.apply),
            body: String(body.prefix(shownBodyCharacters)), cut: cut, failure: reply.failure.map(mask.apply))
    }
}
