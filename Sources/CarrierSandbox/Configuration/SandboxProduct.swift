/// What a token was minted for: the SDK issues different tokens for one-click login and for
/// number verification, and the carrier refuses one for the other (105018 / 606).
public enum SandboxProduct: String, Sendable, CaseIterable, Codable {
    /// `loginTokenValidate` (phone number from a token).
    case login
    /// `tokenValidate` (is this the phone's own number).
    case verify
}
