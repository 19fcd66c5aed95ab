extension CurlHTTPClient {
    /// An HTTP method. A struct rather than an enum so unusual methods stay expressible.
    public struct Method: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The method token as sent on the wire, for example `POST`.
        public var rawValue: String

        /// A method from its wire token.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public static let get = Method(rawValue: "GET")
        public static let post = Method(rawValue: "POST")
        public static let put = Method(rawValue: "PUT")
        public static let patch = Method(rawValue: "PATCH")
        public static let delete = Method(rawValue: "DELETE")
        public static let head = Method(rawValue: "HEAD")

        /// The wire token.
        public var description: String { rawValue }
    }

    /// One HTTP request. Only `http` and `https` URLs are accepted; redirects are not followed.
    public struct Request: Sendable {
        /// The HTTP method.
        public var method: Method
        /// Absolute URL, for example `https://www.cmpassport.com/unisdk/rsapi/loginTokenValidate`.
        public var url: String
        /// Header fields in the order they are sent. Names and values must not contain CR, LF or NUL.
        public var headers: [(name: String, value: String)]
        /// Request body; sent for any method when not empty.
        public var body: [UInt8]
        /// Overrides ``Configuration/connectTimeoutMs`` for this request.
        public var connectTimeoutMs: Int?
        /// Overrides ``Configuration/timeoutMs`` for this request.
        public var timeoutMs: Int?
        /// Overrides ``Configuration/caFile`` for this request (one client serves providers that
        /// each pin their own CA bundle).
        public var caFile: String?
        /// Overrides ``Configuration/proxy`` for this request (each provider its own egress).
        public var proxy: String?

        /// A request; without a `Content-Type` header a POST body is labelled
        /// `application/x-www-form-urlencoded` by libcurl, so set it for JSON.
        public init(
            method: Method = .get,
            url: String,
            headers: [(name: String, value: String)] = [],
            body: [UInt8] = [],
            connectTimeoutMs: Int? = nil,
            timeoutMs: Int? = nil,
            caFile: String? = nil,
            proxy: String? = nil
        ) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.connectTimeoutMs = connectTimeoutMs
            self.timeoutMs = timeoutMs
            self.caFile = caFile
            self.proxy = proxy
        }
    }
}

extension CurlHTTPClient.Request {
    /// The host part of ``url``, for error messages and logs; `nil` when the URL has none.
    var host: String? {
        // Over bytes (every delimiter is ASCII): this runs once per transfer.
        let utf8 = Array(url.utf8)
        guard let schemeEnd = (0..<max(0, utf8.count - 2)).first(where: { utf8[$0] == 58 && utf8[$0 + 1] == 47 && utf8[$0 + 2] == 47 }) else {
            return nil
        }
        let start = schemeEnd + 3
        let end = utf8[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.count
        var authority = utf8[start..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[(at + 1)...]
        }
        if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
            return String(decoding: authority[(authority.startIndex + 1)..<close], as: UTF8.self)
        }
        let host = authority.prefix { $0 != UInt8(ascii: ":") }
        return host.isEmpty ? nil : String(decoding: host, as: UTF8.self)
    }

    /// Why the request cannot be sent as given, or `nil`. Curl would either reject these itself
    /// with a vague code or, worse, send a header split in two.
    var validationProblem: String? {
        if Self.contains(url, where: { $0 == 0 || $0 == 13 || $0 == 10 || $0 == 32 }) {
            return "the URL contains a space, CR, LF or NUL"
        }
        if method.rawValue.isEmpty || Self.contains(method.rawValue, where: { $0 <= 32 || $0 >= 127 }) {
            return "the HTTP method '\(method.rawValue)' is not a token"
        }
        for (name, value) in headers {
            if name.isEmpty || Self.contains(name, where: { $0 <= 32 || $0 == 58 || $0 >= 127 }) {
                return "the header name '\(name)' is empty or contains a space, colon or control character"
            }
            if Self.contains(value, where: { $0 == 13 || $0 == 10 || $0 == 0 }) {
                return "the value of header '\(name)' contains CR, LF or NUL"
            }
        }
        return nil
    }

    /// Whether any UTF-8 byte of `text` matches, over its bytes in place: every call checks
    /// every header, and iterating `String.UTF8View` costs several times a plain byte loop.
    private static func contains(_ text: String, where predicate: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(where: predicate) } ?? text.utf8.contains(where: predicate)
    }
}
