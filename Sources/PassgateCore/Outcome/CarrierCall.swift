/// The facts of one carrier call, for the per-call log line, metrics and the audit log. Holds
/// no token and no phone number.
public struct CarrierCall: Sendable, Equatable {
    /// What was asked of the carrier.
    public enum Operation: String, Sendable {
        case phoneNumber = "phone_number"
        case verify = "verify"
    }

    public var provider: String
    public var operation: Operation
    /// Our msgid for this call.
    public var msgid: String
    /// The carrier's billing record id, when it sent one.
    public var taskId: String?
    /// The carrier's raw result code, when it answered with one.
    public var rawCode: String?
    /// `ok` or the normalized error code.
    public var normalizedCode: String
    /// Whether the carrier bills this call (a documented success or match/mismatch answer).
    public var billable: Bool
    /// Wall time of the HTTP exchange.
    public var latencyMs: Double
    /// The carrier host called.
    public var host: String
    /// The HTTP status of the carrier's reply, when one arrived.
    public var httpStatus: Int?

    public init(
        provider: String, operation: Operation, msgid: String, taskId: String? = nil, rawCode: String? = nil,
        normalizedCode: String, billable: Bool, latencyMs: Double, host: String
    ) {
        self.provider = provider
        self.operation = operation
        self.msgid = msgid
        self.taskId = taskId
        self.rawCode = rawCode
        self.normalizedCode = normalizedCode
        self.billable = billable
        self.latencyMs = latencyMs
        self.host = host
    }
}

/// A carrier call's record together with its outcome: errors keep their call facts too.
public struct CarrierExchange<Value: Sendable>: Sendable {
    /// `nil` when no call was made (the request could not even be built).
    public var call: CarrierCall?
    public var result: Result<Value, PassgateError>

    public init(call: CarrierCall?, result: Result<Value, PassgateError>) {
        self.call = call
        self.result = result
    }
}
