import PassgateCore
import PassgateAPI
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PassgateConfig

/// `POST /v1/phone-number` and `POST /v1/phone-number/verify`.
///
/// Each request takes one snapshot of the live settings when it starts and keeps it to the end,
/// so a configuration reload never changes the rules under a request in flight.
struct PhoneNumberController {
    let live: LiveSettings
    let readiness: Readiness
    let exchange: OneTimeTokenExchange
    let logger: Logger

    var routes: RouteCollection<PassgateRequestContext> {
        let routes = RouteCollection(context: PassgateRequestContext.self)
        routes.post("phone-number", use: phoneNumber)
        routes.post("phone-number/verify", use: verify)
        return routes
    }

    @Sendable func phoneNumber(_ request: Request, context: PassgateRequestContext) async throws -> Response {
        let settings = live.snapshot
        let (client, body) = try await admit(request, settings: settings, context: context)
        let input = try PhoneNumberRequest(json: body)
        let app = try authorize(client: client, appId: input.appId, apps: settings.apps, context: context)
        let fields = try providerFields(input.providerFields, app: app, registry: settings.registry)
        let answer = await exchange.phoneNumber(client: client.id, app: app, token: input.token, fields: fields, logger: requestLogger(context))
        let outcome = try answer.result.get()
        let masked = outcome.maskedPhoneNumber  // computed: mask once for the log line and the answer
        context.facts.maskedPhone = masked
        return JSONBody.response(PhoneNumberResponse(
            requestId: context.requestId, appId: app.appId, provider: app.provider, phoneNumber: outcome.phoneNumber,
            maskedPhoneNumber: masked, carrierTaskId: outcome.carrierTaskId, riskScore: outcome.riskScore,
            replayed: answer.replayed, reference: input.reference
        ))
    }

    @Sendable func verify(_ request: Request, context: PassgateRequestContext) async throws -> Response {
        let settings = live.snapshot
        let (client, body) = try await admit(request, settings: settings, context: context)
        let input = try VerifyRequest(json: body)
        let app = try authorize(client: client, appId: input.appId, apps: settings.apps, context: context)
        context.facts.maskedPhone = MSISDN.mask(input.phoneNumber)
        let fields = try providerFields(input.providerFields, app: app, registry: settings.registry)
        let answer = await exchange.verify(
            client: client.id, app: app, token: input.token, phoneNumber: input.phoneNumber, fields: fields, logger: requestLogger(context))
        let outcome = try answer.result.get()
        return JSONBody.response(VerifyResponse(
            requestId: context.requestId, appId: app.appId, provider: app.provider, result: outcome.result,
            carrierTaskId: outcome.carrierTaskId, replayed: answer.replayed, reference: input.reference
        ))
    }

    /// Not while stopping; then authentication (an anonymous caller learns nothing else): a
    /// failure from a source whose failed authentications are used up is answered 429 instead
    /// of 401, and nothing more is done for it; then the client's rate, media type and size.
    ///
    /// The key is checked first (one SHA-256 and a lookup) so that a valid key is never refused
    /// for its source's failures: behind a load balancer every client shares one source address,
    /// and one client with a wrong key must not lock the others out.
    private func admit(_ request: Request, settings: RequestSettings, context: PassgateRequestContext) async throws -> (ClientSettings, [UInt8]) {
        if readiness.isStopping { throw PassgateError(.serviceDraining, .request(field: nil, problem: "shutting down")) }
        let client: ClientSettings
        do {
            client = try settings.authenticator.authenticate(authorization: request.headers.joinedValue(of: .authorization))
        } catch {
            if settings.authFailures.perMinute > 0, let source = context.sourceAddress {
                try settings.authFailures.admit(source)
                settings.authFailures.recordFailure(source)
            }
            throw error
        }
        context.facts.clientId = client.id
        try settings.rateLimiter.admit(client)
        let contentType = request.headers.joinedValue(of: .contentType)
        if contentType.map(Self.isJSON) != true {
            let mediaType = contentType.map(Self.mediaType(of:))
            throw PassgateError(
                .unsupportedMediaType, .request(field: "Content-Type", problem: "got \(mediaType ?? "none")"),
                message: "Send the body as JSON with 'Content-Type: application/json' (got \(mediaType.map { "'\($0)'" } ?? "no Content-Type"))."
            )
        }
        let maxBodyBytes = settings.maxBodyBytes
        do {
            let buffer = try await request.body.collect(upTo: maxBodyBytes)
            return (client, Array(buffer.readableBytesView))
        } catch is NIOTooManyBytesError {
            throw PassgateError(.payloadTooLarge, .request(field: "body", problem: "over \(maxBodyBytes) bytes"),
                                message: "The request body exceeds \(maxBodyBytes) bytes.")
        }
    }

    /// 404 for an appId nobody configured, 403 for one this client was not granted.
    private func authorize(
        client: ClientSettings, appId: String, apps: [String: AppSettings], context: PassgateRequestContext
    ) throws(PassgateError) -> AppSettings {
        context.facts.appId = appId
        guard let app = apps[appId] else {
            throw PassgateError(.appUnknown, .request(field: "appId", problem: "not configured"),
                                message: "appId \(appId) is not configured in Passgate; check the appId your app's SDK uses (iOS and Android apps differ).")
        }
        guard client.apps.contains(appId) else {
            throw PassgateError(.appForbidden, .request(field: "appId", problem: "not granted to \(client.id)"),
                                message: "This API key (client \(client.id)) is not granted appId \(appId).")
        }
        return app
    }

    /// The body's `providerFields` held to what the app's provider declares (a 400 naming
    /// `providerFields.<key>` otherwise): only now, with the app known, is the provider.
    private func providerFields(_ sent: [String: String], app: AppSettings, registry: ProviderRegistry) throws(PassgateError) -> ProviderFields {
        guard let provider = registry[app.provider] else { throw .internalError("provider \(app.provider) of app \(app.appId) is not registered") }
        return try ProviderFields(checking: sent, against: provider.providerFields, provider: provider.id)
    }

    private func requestLogger(_ context: PassgateRequestContext) -> Logger {
        var logger = logger
        // The handler's metadata written once, sized for every key: key by key, the first write
        // would copy the shared dictionary and the next grow it, on every request.
        var metadata = Logger.Metadata(minimumCapacity: logger.handler.metadata.count + 3)
        for (key, value) in logger.handler.metadata { metadata[key] = value }
        metadata["requestId"] = .string(context.requestId)
        if let clientId = context.facts.clientId { metadata["client"] = .string(clientId) }
        // The audit record takes it from here too (ProviderGateway.record).
        if let traceId = context.traceId { metadata["traceId"] = .string(traceId) }
        logger.handler.metadata = metadata
        return logger
    }

    /// Whether a Content-Type value's media type is `application/json`: what `mediaType(of:)`
    /// would compare, decided over the value's bytes without building the lowered copy, which
    /// every accepted request would otherwise pay for.
    static func isJSON(_ value: String) -> Bool {
        withMediaTypeBytes(of: value) { $0.elementsEqual("application/json".utf8) { lowered($0) == $1 } }
    }

    /// `type/subtype` of a Content-Type value: parameters, spaces and tabs dropped, ASCII lowercased.
    /// Over bytes: Foundation's `trimmingCharacters` bridges through `NSString` on every request.
    static func mediaType(of value: String) -> String {
        withMediaTypeBytes(of: value) { String(decoding: $0.map(lowered), as: UTF8.self) }
    }

    /// The media type's bytes in a Content-Type value: up to the first `;`, spaces and tabs trimmed.
    private static func withMediaTypeBytes<Result>(of value: String, _ body: (Slice<UnsafeBufferPointer<UInt8>>) -> Result) -> Result {
        var value = value
        return value.withUTF8 { bytes in
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            var start = 0
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            return body(bytes[start..<end])
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
