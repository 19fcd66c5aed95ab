/// Where the Redis state store connects: `redis://host[:port][/db]`.
///
/// Port defaults to 6379 and database to 0. IPv6 hosts go in brackets (`redis://[::1]:6380`).
/// Credentials, TLS (`rediss://`), Unix sockets and query options are not supported and are
/// rejected rather than ignored.
public struct RedisURL: Sendable, Hashable, CustomStringConvertible {
    public static let defaultPort = 6379

    /// Host name or IP address, without brackets.
    public var host: String
    public var port: Int
    /// Logical database, selected on every new connection when not 0.
    public var database: Int

    public init(host: String, port: Int = RedisURL.defaultPort, database: Int = 0) {
        self.host = host
        self.port = port
        self.database = database
    }

    /// Parses `redis://host[:port][/db]`.
    public init(parsing text: String) throws(RedisConfigurationError) {
        func fail(_ reason: String) -> RedisConfigurationError {
            RedisConfigurationError("redis URL \"\(RedisURL.redacted(text))\" \(reason); expected redis://host[:port][/db]")
        }
        let scheme = "redis://"
        guard text.lowercased().hasPrefix(scheme) else {
            if text.lowercased().hasPrefix("rediss://") { throw fail("uses TLS (rediss://), which is not supported") }
            throw fail("does not start with redis://")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.contains("?") || rest.contains("#") { throw fail("has query options, which are not supported") }
        if rest.contains("@") { throw fail("has credentials, which are not supported") }

        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard let number = Int(path), number >= 0, number <= 15_999 else {
                    throw fail("has database \"\(path)\", which is not a non-negative number")
                }
                database = number
            }
        }

        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("has an IPv6 host without a closing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("has text after the IPv6 host") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw fail("has no host") }
        if host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "[" || $0 == "]" }) {
            throw fail("has an invalid host")
        }
        var port = RedisURL.defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw fail("has port \"\(portText)\", which is not a number from 1 to 65535")
            }
            port = number
        }
        self.init(host: String(host), port: port, database: database)
    }

    /// `host:port`, as error messages and logs name the server.
    public var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public var description: String { "redis://\(endpoint)/\(database)" }

    /// The URL with anything after an `@` hidden, so a password typed into it never reaches a log.
    private static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let scheme = text.prefix { $0 != ":" }
        return scheme + "://***" + String(text[at...])
    }
}

/// A Redis state store that cannot be set up as configured (bad URL, key, or pool size).
public struct RedisConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
