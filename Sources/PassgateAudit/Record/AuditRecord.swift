import PassgateCore
import Foundation

/// One carrier call as the audit log keeps it: what the carrier's bill can be checked against.
///
/// It holds no token and no phone number, only identifiers and outcome codes. One record is one
/// JSON line, with its keys always present and always in this order (absent values are `null`):
/// `time, requestId, client, appId, provider, operation, msgid, carrierTaskId, rawCode,
/// normalizedCode, billable, latencyMs, host, traceId`. Lines written before `traceId` existed
/// lack it, and are read as records without one.
public struct AuditRecord: Sendable, Equatable {
    /// When the carrier call finished, in epoch milliseconds (written as ISO-8601 UTC).
    public var timeMilliseconds: Int64
    /// The REST request that made the call (`X-Request-Id`).
    public var requestId: String
    /// The configured client id that sent the request.
    public var client: String
    public var appId: String
    /// The call itself, as the gateway recorded it: the record adds only who asked and when.
    public var call: CarrierCall
    /// The request's W3C trace id (32 hex digits) when tracing is on, to find the call's spans.
    public var traceId: String?

    public init(timeMilliseconds: Int64, requestId: String, client: String, appId: String, call: CarrierCall, traceId: String? = nil) {
        self.timeMilliseconds = timeMilliseconds
        self.requestId = requestId
        self.client = client
        self.appId = appId
        self.call = call
        self.traceId = traceId
    }

    /// A record from its fields (a line read back); nil for an operation Passgate does not make.
    public init?(
        timeMilliseconds: Int64, requestId: String, client: String, appId: String, provider: String, operation: String,
        msgid: String, carrierTaskId: String? = nil, rawCode: String? = nil, normalizedCode: String, billable: Bool,
        latencyMs: Double, host: String, traceId: String? = nil
    ) {
        guard let operation = CarrierCall.Operation(rawValue: operation) else { return nil }
        self.init(timeMilliseconds: timeMilliseconds, requestId: requestId, client: client, appId: appId, call: CarrierCall(
            provider: provider, operation: operation, msgid: msgid, taskId: carrierTaskId, rawCode: rawCode, normalizedCode: normalizedCode,
            billable: billable, latencyMs: latencyMs, host: host), traceId: traceId)
    }

    /// The record of `call`, made for `requestId` by `client` on `appId`, finished at `time`.
    public init(time: Date = Date(), requestId: String, client: String, appId: String, call: CarrierCall) {
        self.init(timeMilliseconds: Int64((time.timeIntervalSince1970 * 1000).rounded(.down)), requestId: requestId, client: client,
                  appId: appId, call: call)
    }

    /// The provider (`cmcc`).
    public var provider: String { get { call.provider } set { call.provider = newValue } }
    /// `phone_number` or `verify`.
    public var operation: String { call.operation.rawValue }
    /// Our msgid for the call, also in the carrier's records.
    public var msgid: String { get { call.msgid } set { call.msgid = newValue } }
    /// The carrier's billing record id, when it sent one.
    public var carrierTaskId: String? { get { call.taskId } set { call.taskId = newValue } }
    /// The carrier's own result code, when it answered with one.
    public var rawCode: String? { get { call.rawCode } set { call.rawCode = newValue } }
    /// `ok` or Passgate's normalized error code.
    public var normalizedCode: String { get { call.normalizedCode } set { call.normalizedCode = newValue } }
    /// Whether the carrier bills this call.
    public var billable: Bool { get { call.billable } set { call.billable = newValue } }
    /// Wall time of the HTTP exchange.
    public var latencyMs: Double { get { call.latencyMs } set { call.latencyMs = newValue } }
    /// The carrier host called.
    public var host: String { get { call.host } set { call.host = newValue } }

    /// `timeMilliseconds` as a `Date`.
    public var time: Date { Date(timeIntervalSince1970: Double(timeMilliseconds) / 1000) }

    /// The keys of a line, in the order they are written.
    public static let keys = [
        "time", "requestId", "client", "appId", "provider", "operation", "msgid", "carrierTaskId", "rawCode", "normalizedCode",
        "billable", "latencyMs", "host", "traceId",
    ]
}
