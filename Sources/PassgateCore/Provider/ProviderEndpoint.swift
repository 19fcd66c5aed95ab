/// Where and how patiently to call a provider: one of its base URLs with its provider's timeouts
/// and transport options.
public struct ProviderEndpoint: Sendable, Equatable {
    /// E.g. `https://www.cmpassport.com`, without a trailing slash.
    public let baseURL: String
    /// The host part of ``baseURL``, for messages and metrics; worked out once, as every carrier
    /// call reads it.
    public let host: String
    public var connectTimeoutMs: Int
    public var timeoutMs: Int
    /// The provider's own TLS trust and egress proxy.
    public var options: CarrierHTTPRequest.Options

    public init(baseURL: String, connectTimeoutMs: Int = 1000, timeoutMs: Int = 3000, options: CarrierHTTPRequest.Options = .init()) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.host = Self.host(of: self.baseURL)
        self.connectTimeoutMs = connectTimeoutMs
        self.timeoutMs = timeoutMs
        self.options = options
    }

    private static func host(of baseURL: String) -> String {
        let utf8 = Array(baseURL.utf8)
        var start = 0
        if let index = (0..<max(0, utf8.count - 2)).first(where: { utf8[$0] == 58 && utf8[$0 + 1] == 47 && utf8[$0 + 2] == 47 }) {
            start = index + 3  // after "://"
        }
        let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.count
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
