/// An HTTP POST to a carrier.
public struct CarrierHTTPRequest: Sendable {
    public var url: String
    public var body: [UInt8]
    public var headers: [(name: String, value: String)]
    public var connectTimeoutMs: Int
    public var timeoutMs: Int

    public init(url: String, body: [UInt8], headers: [(name: String, value: String)] = [], connectTimeoutMs: Int, timeoutMs: Int) {
        self.url = url
        self.body = body
        self.headers = headers
        self.connectTimeoutMs = connectTimeoutMs
        self.timeoutMs = timeoutMs
    }
}

/// The carrier's HTTP reply, whatever its status.
public struct CarrierHTTPReply: Sendable {
    public var status: Int
    public var contentType: String?
    public var body: [UInt8]

    public init(status: Int, contentType: String?, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// Sends carrier requests. The production conformance is the libcurl client; tests use fakes.
///
/// A conformance throws `TransportFailure` when the exchange does not complete (so the caller
/// can tell "not sent" from "may have been delivered"), and `CancellationError` when cancelled.
public protocol CarrierTransport: Sendable {
    func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply
}
