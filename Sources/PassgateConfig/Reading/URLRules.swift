import Foundation

/// The shapes of the URLs a configuration names. Each check returns what is wrong (without
/// repeating the URL, which may carry credentials), or `nil`.
enum URLRules {
    /// A carrier base URL: absolute http(s), a host, no query, fragment or credentials;
    /// plain http only for loopback hosts.
    static func baseURLProblem(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty
        else {
            return "must be an absolute URL such as https://www.cmpassport.com"
        }
        guard scheme == "https" || scheme == "http" else {
            return "must be an http(s) URL, not \(scheme):"
        }
        guard components.user == nil, components.password == nil else {
            return "must not contain credentials"
        }
        guard components.query == nil, components.fragment == nil else {
            return "must not have a query or fragment: give only scheme, host, optional port and path prefix"
        }
        if scheme == "http", !isLoopback(host) {
            return "must use https: tokens and phone numbers would cross the network in clear text "
                + "(http is accepted only for loopback hosts such as 127.0.0.1, ::1 or localhost, e.g. a local sandbox)"
        }
        return nil
    }

    /// An egress proxy URL as libcurl takes it: http, https, socks4(a) or socks5(h), with a host.
    static func proxyProblem(_ text: String) -> String? {
        let schemes = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty
        else {
            return "must be a URL such as http://egress-proxy:3128"
        }
        guard schemes.contains(scheme) else {
            return "must use one of \(schemes.joined(separator: ", ")), not \(scheme):"
        }
        return nil
    }

    /// `redis://host[:port][/db]`.
    static func redisProblem(_ text: String) -> String? {
        let shape = "must look like redis://host[:port][/db], e.g. redis://127.0.0.1:6379/0"
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "redis",
              let host = components.host, !host.isEmpty
        else {
            return shape
        }
        guard components.user == nil, components.password == nil else {
            return "\(shape) (credentials in the URL are not supported)"
        }
        guard components.query == nil, components.fragment == nil else { return shape }
        if let port = components.port, !(1...65535).contains(port) { return "\(shape) (port 1-65535)" }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard database.isEmpty || (database.count <= 5 && database.allSatisfy(\.isASCIIDigit)) else {
            return "\(shape) (the path is the database number)"
        }
        return nil
    }

    /// 127.0.0.0/8, ::1 or localhost (with or without IPv6 brackets, any case).
    static func isLoopback(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "localhost." || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) && Int($0)! <= 255 }) else {
            return false
        }
        return octets[0] == "127"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
