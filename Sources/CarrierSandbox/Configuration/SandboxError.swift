/// Why a sandbox operation (minting, starting) failed. `message` names the offending field and
/// says what is accepted; the same text is what `POST /sandbox/tokens` answers with in a 400.
public struct SandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable category.
    public enum Kind: String, Sendable, Hashable {
        /// A request field is missing or ill-formed (``SandboxError/field`` names it).
        case invalidField = "invalid_field"
        /// The appId is not one of the sandbox's apps.
        case unknownApp = "unknown_app"
        /// More than 30 unused tokens for one number within 10 minutes.
        case tokenLimit = "token_limit"
        /// The configuration cannot start (see ``SandboxError/message``).
        case invalidConfiguration = "invalid_configuration"
        /// The sandbox was shut down.
        case shutDown = "shut_down"
    }

    /// The category.
    public var kind: Kind
    /// The request field at fault, when there is one.
    public var field: String?
    /// What went wrong and what is accepted.
    public var message: String

    /// An error.
    public init(_ kind: Kind, field: String? = nil, message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    public var description: String { "SandboxError.\(kind.rawValue): \(message)" }

    static func field(_ name: String, _ problem: String) -> SandboxError {
        SandboxError(.invalidField, field: name, message: "\(name): \(problem)")
    }
}
