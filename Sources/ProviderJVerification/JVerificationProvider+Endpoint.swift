import Foundation
import PassgateCore

extension JVerificationProvider {
    /// `endpoint`: the login API of a reseller that speaks JVerification's protocol, as one https
    /// URL with its path (Upyun: `https://sim-api.upyun.com/login/token/verify`). Reported when
    /// it is not one; nil when absent. With the sandbox enabled only the path is kept: the
    /// sandbox, at the provider's base URL, answers on it.
    static func readEndpoint(_ fields: any AppFieldReader) -> JVerificationApp.Endpoint? {
        guard let text = fields.text("endpoint") else { return nil }
        if let problem = endpointProblem(text) {
            fields.report("endpoint", "\(fields.path(of: "endpoint")) \(problem)")
            return nil
        }
        guard let components = URLComponents(string: text), let host = components.host else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        return JVerificationApp.Endpoint(baseURL: fields.sandboxEnabled ? nil : "https://\(host)\(port)", path: components.percentEncodedPath)
    }

    /// What is wrong with `text` as an endpoint, or nil; never quotes it back (the caller names the key).
    static func endpointProblem(_ text: String) -> String? {
        let shape = "must be the https URL of the login API, with its path, such as https://sim-api.upyun.com/login/token/verify"
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }), let components = URLComponents(string: text),
            let host = components.host, !host.isEmpty
        else { return shape }
        guard components.scheme?.lowercased() == "https" else { return "must use https: tokens and phone numbers would cross the network in clear text" }
        guard components.user == nil, components.password == nil else { return "must not contain credentials" }
        guard components.query == nil, components.fragment == nil else { return "must not have a query or fragment" }
        let path = components.percentEncodedPath
        guard path.count > 1, path.hasPrefix("/"), !path.hasSuffix("/") else { return "\(shape): the path is missing" }
        guard path.utf8.count <= 256 else { return "has a path of more than 256 characters" }
        return nil
    }
}
