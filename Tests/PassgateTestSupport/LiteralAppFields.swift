import OpenSSLCrypto
import PassgateCore

/// An app entry of literal values for a provider's `readApp`, recording the problems reported: the
/// configuration reader's role (its secret resolution, paths and lines are tested with it), so a
/// provider's own settings rules can be tested without YAML.
public final class LiteralAppFields: AppFieldReader {
    public let appId: String
    public let values: [String: String]
    /// What `readApp` reported, in order.
    public private(set) var problems: [(key: String, message: String)] = []

    public init(appId: String, _ values: [String: String]) {
        self.appId = appId
        self.values = values
    }

    public var sandboxEnabled: Bool { false }
    public func isPresent(_ key: String) -> Bool { values[key] != nil }
    public func path(of key: String) -> String { "apps[0].\(key)" }
    public func choice(_ key: String, _ options: [String]) -> String? { values[key].flatMap { options.contains($0) ? $0 : nil } }
    public func text(_ key: String) -> String? { values[key] }
    public func secret(_ key: String, purpose: String) -> String? { values[key] }
    public func privateKey(_ key: String) -> RSAPrivateKey? { nil }
    public func report(_ key: String, _ message: String) { problems.append((key, message)) }
    public var hasProblems: Bool { !problems.isEmpty }
}
