import Foundation

/// One complete HTTP request as an emulator sees it (no NIO types, so the rules stay plain code).
public struct EmulatorRequest: Sendable {
    /// `POST`, `GET`, …
    public var method: String
    /// The path without query string.
    public var path: String
    /// The query string without `?` (empty when there is none), for providers that sign one.
    public var query: String
    public var body: [UInt8]
    /// The peer's IP address text (`127.0.0.1`, `::1`), IPv4-mapped IPv6 unmapped.
    public var peerIP: String?
    /// The headers providers' protocols check (HTTP Basic authentication, the body's type).
    public var authorization: String?
    public var contentType: String?
    /// Every header as received, for a provider whose signature covers headers (an API gateway's `x-ca-*`).
    public var headers: [(name: String, value: String)]

    /// A request; `uri` may carry a query string or fragment, which the path drops.
    public init(
        method: String, uri: String, body: [UInt8], peerIP: String?, authorization: String? = nil, contentType: String? = nil,
        headers: [(name: String, value: String)] = []
    ) {
        self.method = method
        self.path = String(uri.prefix { $0 != "?" && $0 != "#" })
        self.query = String(uri.drop { $0 != "?" }.dropFirst().prefix { $0 != "#" })
        self.headers = headers
        self.body = body
        self.peerIP = peerIP.map(Self.unmapped)
        self.authorization = authorization
        self.contentType = contentType
    }

    /// The first value of header `name`, compared without regard to ASCII case.
    public func header(_ name: String) -> String? {
        headers.first { ASCIICase.equals($0.name, name) }?.value
    }

    /// `::ffff:10.0.0.1` -> `10.0.0.1`, so an allow list of IPv4 addresses works on dual-stack listeners.
    public static func unmapped(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), lowered.contains(".") { return String(address.dropFirst(7)) }
        return address
    }

    /// The body as JSON, kept as typed as the wire: provider rules depend on whether a value was a
    /// string, a number or `null`. nil when it is not JSON.
    public var json: ParsedJSON? { ParsedJSON.sandboxParse(body) }

    /// The body's `application/x-www-form-urlencoded` fields (the last of a repeated name wins);
    /// nil when it is not valid UTF-8 or percent-encoding.
    public var formFields: [String: String]? {
        guard let text = String(bytes: body, encoding: .utf8) else { return nil }
        return Self.fields(text)
    }

    /// The query's fields, read as a form body is; nil when an escape is malformed.
    public var queryFields: [String: String]? { Self.fields(query) }

    private static func fields(_ text: String) -> [String: String]? {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = String(parts[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                let value = (parts.count > 1 ? String(parts[1]) : "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            else { return nil }
            fields[name] = value
        }
        return fields
    }
}
