import PassgateCore
extension CurlHTTPClient {
    /// The HTTP version a response arrived with.
    public enum HTTPVersion: String, Sendable, Hashable {
        case http1_0 = "HTTP/1.0"
        case http1_1 = "HTTP/1.1"
        case http2 = "HTTP/2"
        case http3 = "HTTP/3"
        case unknown
    }

    /// A complete HTTP response: any status is a response, not an error.
    public struct Response: Sendable {
        /// The HTTP status code, for example 200.
        public var status: Int
        /// Header fields of the final response (interim `1xx` responses are dropped), in arrival order.
        public var headers: [(name: String, value: String)]
        /// The body, at most ``Configuration/maxResponseBytes`` long.
        public var body: [UInt8]
        /// The protocol version the server answered with.
        public var httpVersion: HTTPVersion
        /// Whether the transfer ran on a kept-alive connection rather than a new one.
        public var connectionReused: Bool
        /// Time from the start of the transfer to the last byte.
        public var totalTime: Duration
        /// Time from the start of the transfer until the TCP connection was up (zero when reused).
        public var connectTime: Duration

        /// A response; public so fakes of the transport can build one.
        public init(
            status: Int,
            headers: [(name: String, value: String)] = [],
            body: [UInt8] = [],
            httpVersion: HTTPVersion = .http1_1,
            connectionReused: Bool = false,
            totalTime: Duration = .zero,
            connectTime: Duration = .zero
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.httpVersion = httpVersion
            self.connectionReused = connectionReused
            self.totalTime = totalTime
            self.connectTime = connectTime
        }

        /// The first value of the header `name`, compared case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { ASCIICase.equals($0.name, name) }?.value
        }

        /// The body decoded as UTF-8, with invalid bytes replaced.
        public var bodyText: String {
            String(decoding: body, as: UTF8.self)
        }
    }
}
