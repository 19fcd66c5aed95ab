import PassgateCore
import Foundation

/// One carrier call as the audit log keeps it: what the carrier's bill can be checked against.
///
/// It holds no token and no phone number, only identifiers and outcome codes. One record is one
/// JSON line, with its keys always present and always in this order (absent values are `null`):
/// `time, requestId, client, appId, provider, operation, msgid, carrierTaskId, rawCode,
/// normalizedCode, billable, latencyMs, host`.
public struct AuditRecord: Sendable, Equatable {
    /// When the carrier call finished, in epoch milliseconds (written as ISO-8601 UTC).
    public var timeMilliseconds: Int64
    /// The REST request that made the call (`X-Request-Id`).
    public var requestId: String
    /// The configured client id that sent the request.
    public var client: String
    public var appId: String
    /// `cmcc`.
    public var provider: String
    /// `phone_number` or `verify` (`CarrierCall.Operation`).
    public var operation: String
    /// Our msgid for the call, also in the carrier's records.
    public var msgid: String
    /// The carrier's billing record id, when it sent one.
    public var carrierTaskId: String?
    /// The carrier's own result code, when it answered with one.
    public var rawCode: String?
    /// `ok` or Passgate's normalized error code.
    public var normalizedCode: String
    /// Whether the carrier bills this call.
    public var billable: Bool
    /// Wall time of the HTTP exchange.
    public var latencyMs: Double
    /// The carrier host called.
    public var host: String

    public init(
        timeMilliseconds: Int64, requestId: String, client: String, appId: String, provider: String, operation: String,
        msgid: String, carrierTaskId: String? = nil, rawCode: String? = nil, normalizedCode: String, billable: Bool,
        latencyMs: Double, host: String
    ) {
        self.timeMilliseconds = timeMilliseconds
        self.requestId = requestId
        self.client = client
        self.appId = appId
        self.provider = provider
        self.operation = operation
        self.msgid = msgid
        self.carrierTaskId = carrierTaskId
        self.rawCode = rawCode
        self.normalizedCode = normalizedCode
        self.billable = billable
        self.latencyMs = latencyMs
        self.host = host
    }

    /// The record of `call`, made for `requestId` by `client` on `appId`, finished at `time`.
    public init(time: Date = Date(), requestId: String, client: String, appId: String, call: CarrierCall) {
        self.init(
            timeMilliseconds: Int64((time.timeIntervalSince1970 * 1000).rounded(.down)), requestId: requestId, client: client,
            appId: appId, provider: call.provider, operation: call.operation.rawValue, msgid: call.msgid, carrierTaskId: call.taskId,
            rawCode: call.rawCode, normalizedCode: call.normalizedCode, billable: call.billable, latencyMs: call.latencyMs, host: call.host
        )
    }

    /// `timeMilliseconds` as a `Date`.
    public var time: Date { Date(timeIntervalSince1970: Double(timeMilliseconds) / 1000) }

    /// The keys of a line, in the order they are written.
    public static let keys = [
        "time", "requestId", "client", "appId", "provider", "operation", "msgid", "carrierTaskId", "rawCode", "normalizedCode",
        "billable", "latencyMs", "host",
    ]
}
