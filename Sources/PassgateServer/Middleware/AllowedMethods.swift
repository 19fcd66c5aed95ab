/// The methods each path of one listener serves, from its route list (`"METHOD /path"`): a known
/// path asked with another method is 405 `method_not_allowed` with an `Allow` header (RFC 9110),
/// not 404 as the router alone would answer.
struct AllowedMethods: Sendable {
    private let methods: [String: [String]]

    init(routes: [String]) {
        var methods: [String: [String]] = [:]
        for route in routes {
            let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            methods[parts[1], default: []].append(parts[0])
        }
        self.methods = methods.mapValues { $0.sorted() }
    }

    /// The `Allow` value for `path`, or nil when the listener does not serve it at all.
    func allow(_ path: String) -> String? {
        methods[path].map { $0.joined(separator: ", ") }
    }
}
