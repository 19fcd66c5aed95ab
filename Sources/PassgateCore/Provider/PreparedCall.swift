/// An HTTP request a provider built and signed, relative to one of its base URLs.
public struct ProviderRequest: Sendable, RedactedDescription {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }

    public var method: Method
    /// The path, and the query when the provider signs one, appended to the base URL.
    public var path: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Our id for this call (CMCC's msgid): in the call record, the logs and the audit line.
    public var msgid: String
    /// A base URL the app's settings name instead of the provider's (a reseller speaking the
    /// provider's protocol under another host and path): the call goes there, whichever of the
    /// provider's base URLs the server chose; nil for the provider's own.
    public var baseURL: String?

    public init(method: Method = .post, path: String, headers: [(name: String, value: String)], body: [UInt8], msgid: String, baseURL: String? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.msgid = msgid
        self.baseURL = baseURL
    }

    /// The body carries the token and the signature, a signed query or header may carry a key:
    /// printed are the method, the path without its query, the header names and the body's size.
    public var redactedFields: [(label: String, value: String)] {
        [
            ("method", method.rawValue), ("path", String(path.prefix { $0 != "?" })), ("msgid", msgid),
            ("headers", headers.map(\.name).joined(separator: ",")), ("bodyBytes", "\(body.count)"),
        ]
    }
}

/// What a provider made of one reply.
public struct ProviderAnswer<Value: Sendable>: Sendable {
    /// The provider's own result code, when it sent one.
    public var rawCode: String?
    /// The provider's id for the call (billing record), when it sent one.
    public var taskId: String?
    /// Whether the provider bills this call (its code says so, whatever Passgate then makes of it).
    public var billable: Bool
    public var result: Result<Value, PassgateError>

    public init(rawCode: String?, taskId: String?, billable: Bool, result: Result<Value, PassgateError>) {
        self.rawCode = rawCode
        self.taskId = taskId
        self.billable = billable
        self.result = result
    }

    /// A reply that is no protocol answer at all: nothing to bill, no code.
    public static func failure(_ error: PassgateError) -> ProviderAnswer {
        ProviderAnswer(rawCode: nil, taskId: nil, billable: false, result: .failure(error))
    }
}

/// A signed request and how to read its reply: what a provider hands the server for one call.
public struct PreparedCall<Value: Sendable>: Sendable {
    public var provider: String
    public var operation: CarrierCall.Operation
    public var request: ProviderRequest
    public var interpret: @Sendable (CarrierHTTPReply) -> ProviderAnswer<Value>

    public init(
        provider: String, operation: CarrierCall.Operation, request: ProviderRequest,
        interpret: @escaping @Sendable (CarrierHTTPReply) -> ProviderAnswer<Value>
    ) {
        self.provider = provider
        self.operation = operation
        self.request = request
        self.interpret = interpret
    }
}
