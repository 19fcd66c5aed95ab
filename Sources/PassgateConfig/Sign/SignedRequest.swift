import PassgateCore

/// One request `passgate sign` (or the console's integration check) prepared, and how it prints: explained text for a person, or one
/// JSON object for a script (`bench/run` sends them to the sandbox as its upstream reference).
public struct SignedRequest: Sendable {
    public var provider: String
    /// The provider's first configured base URL (or the embedded sandbox's); `--base-url` replaces it.
    public var baseURL: String
    public var call: ExplainedCall
    public var explanation: RequestExplanation

    /// The headers as printed: a credential header's value masked unless `showSecrets`, its mask
    /// followed by `hint` (what shows it; the console has nothing that does).
    public func headers(showSecrets: Bool, hint: String = "; --show-secrets prints it") -> [(name: String, value: String)] {
        call.request.headers.map { header in
            let secret = !showSecrets && explanation.secretHeaders.contains { ASCIICase.equals($0, header.name) }
            return (name: header.name, value: secret ? "<redacted: \(header.value.utf8.count) bytes\(hint)>" : header.value)
        }
    }

    public var body: String { String(decoding: call.request.body, as: UTF8.self) }

    /// The request line, the headers, the body, then the provider's explanation, one per line.
    public func text(showSecrets: Bool) -> String {
        var lines = ["\(call.request.method.rawValue) \(baseURL)\(call.request.path)"]
        lines += headers(showSecrets: showSecrets).map { "\($0.name): \($0.value)" }
        lines += ["", body, "", "provider: \(provider)"]
        lines += explanation.details.map { "\($0.label): \($0.value)" }
        return lines.joined(separator: "\n")
    }

    /// `{"provider", "operation", "method", "url", "headers": {name: value}, "body", "token", "phoneNumber"?}`.
    public func json(showSecrets: Bool) -> String {
        var object = JSONObjectWriter()
        object.add("provider", provider)
        object.add("operation", call.operation.rawValue)
        object.add("method", call.request.method.rawValue)
        object.add("url", baseURL + call.request.path)
        var headerObject = JSONObjectWriter()
        for header in headers(showSecrets: showSecrets) { headerObject.add(header.name, header.value) }
        object.add("headers", object: headerObject)
        object.add("body", body)
        object.add("token", call.token)
        object.add("phoneNumber", call.phoneNumber)
        return String(decoding: object.finish(), as: UTF8.self)
    }
}
