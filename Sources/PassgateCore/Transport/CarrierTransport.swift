/// An HTTP request to a provider.
public struct CarrierHTTPRequest: Sendable {
    /// A provider's own transport options: its TLS trust and egress proxy.
    public struct Options: Sendable, Equatable {
        /// PEM bundle of CA certificates; nil: the system's.
        public var caFile: String?
        /// Egress proxy URL; nil: none (environment proxy variables are ignored too).
        public var proxy: String?

        public init(caFile: String? = nil, proxy: String? = nil) {
            self.caFile = caFile
            self.proxy = proxy
        }
    }

    /// `POST` or `GET`.
    public var method: String
    public var url: String
    public var body: [UInt8]
    public var headers: [(name: String, value: String)]
    public var connectTimeoutMs: Int
    public var timeoutMs: Int
    public var options: Options

    public init(
        method: String = "POST", url: String, body: [UInt8], headers: [(name: String, value: String)] = [], connectTimeoutMs: Int, timeoutMs: Int,
        options: Options = .init()
    ) {
        self.method = method
        self.url = url
        self.body = body
        self.headers = headers
        self.connectTimeoutMs = connectTimeoutMs
        self.timeoutMs = timeoutMs
        self.options = options
    }
}

/// The carrier's HTTP reply, whatever its status.
public struct CarrierHTTPReply: Sendable {
    public var status: Int
    public var contentType: String?
    public var body: [UInt8]
    /// The reply's headers, for a provider whose refusals come in one (an API gateway's
    /// `X-Ca-Error-Message` with an empty body). Values come from outside: redact before quoting.
    public var headers: [(name: String, value: String)]

    public init(status: Int, contentType: String?, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// The first value of header `name`, compared without regard to ASCII case.
    public func header(_ name: String) -> String? {
        headers.first { ASCIICase.equals($0.name, name) }?.value
    }
}

/// Sends provider requests. The production conformance is the libcurl client; tests use fakes.
///
/// A conformance throws `TransportFailure` when the exchange does not complete (so the caller
/// can tell "not sent" from "may have been delivered"), and `CancellationError` when cancelled.
public protocol CarrierTransport: Sendable {
    func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply
}
