import CarrierKit
import Foundation
import Logging
import PassgateConfig

/// The carrier operations the REST controllers need. A protocol so the exchange layer (replay
/// cache, single flight) can wrap it without the controllers changing.
protocol CarrierGateway: Sendable {
    func phoneNumber(app: AppSettings, token: String, logger: Logger) async -> CarrierExchange<PhoneNumberOutcome>
    func verify(app: AppSettings, token: String, phoneNumber: String, logger: Logger) async -> CarrierExchange<VerificationOutcome>
}

/// Calls the app's provider once per request, then logs and meters the call.
struct ProviderGateway: CarrierGateway {
    let cmcc: CMCCProvider
    let providers: [String: ProviderSettings]
    let metrics: PassgateMetrics

    func phoneNumber(app: AppSettings, token: String, logger: Logger) async -> CarrierExchange<PhoneNumberOutcome> {
        guard let endpoint = endpoint(for: app) else { return Self.unconfigured(app) }
        let exchange = await cmcc.phoneNumber(app: app.cmccApp, token: token, endpoint: endpoint)
        record(exchange.call, masked: (try? exchange.result.get())?.maskedPhoneNumber, logger: logger)
        return exchange
    }

    func verify(app: AppSettings, token: String, phoneNumber: String, logger: Logger) async -> CarrierExchange<VerificationOutcome> {
        guard let endpoint = endpoint(for: app) else { return Self.unconfigured(app) }
        let exchange = await cmcc.verify(app: app.cmccApp, token: token, phoneNumber: phoneNumber, endpoint: endpoint)
        record(exchange.call, masked: MSISDN.mask(phoneNumber), logger: logger)
        return exchange
    }

    /// The first configured base URL (fail-over across the list comes with the exchange layer).
    private func endpoint(for app: AppSettings) -> CMCCEndpoint? {
        guard let provider = providers[app.provider], let base = provider.baseURLs.first else { return nil }
        return CMCCEndpoint(baseURL: base, connectTimeoutMs: provider.connectTimeoutMs, timeoutMs: provider.timeoutMs)
    }

    /// One line per carrier call: what billing reconciliation and on-call need, no token, masked number.
    private func record(_ call: CarrierCall?, masked: String?, logger: Logger) {
        guard let call else { return }
        metrics.recordCarrierCall(call)
        var metadata: Logger.Metadata = [
            "provider": .string(call.provider), "operation": .string(call.operation.rawValue), "msgid": .string(call.msgid),
            "rawCode": .string(call.rawCode ?? "-"), "code": .string(call.normalizedCode), "billable": .stringConvertible(call.billable),
            "latencyMs": .string(String(format: "%.2f", call.latencyMs)), "host": .string(call.host),
        ]
        if let taskId = call.taskId { metadata["taskId"] = .string(taskId) }
        if let masked { metadata["phone"] = .string(masked) }
        logger.info("carrier call", metadata: metadata)
    }

    private static func unconfigured<Value>(_ app: AppSettings) -> CarrierExchange<Value> {
        CarrierExchange(call: nil, result: .failure(.internalError("provider \(app.provider) has no base URL configured")))
    }
}
