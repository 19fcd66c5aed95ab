/// One `providerFields` value every request of a bench scenario carries, in Passgate's body and
/// in the upstream reference `passgate sign` prepares (Geetest's `processId`, Getui's `gyuid`).
public struct BenchField: Sendable, Equatable {
    /// How the bench makes the value of each request.
    public enum Value: Sendable, Equatable {
        /// The same text on every request (a device id the provider does not spend).
        case fixed(String)
        /// The prefix and a counter the bench keeps for the whole run, fresh on every request: the
        /// provider (and its emulator) refuses a flow id or carrier token it has seen.
        case unique(prefix: String)
        /// The request's own token: the emulator takes a minted token as its companion value too
        /// (MobTech's carrier `opToken`), as the SDK hands the app both.
        case token
    }

    /// The key in `providerFields`: one of the provider's ``CarrierProvider/providerFields``.
    public var name: String
    public var value: Value

    public init(_ name: String, _ value: Value) {
        self.name = name
        self.value = value
    }

    /// Whether the text (fixed value or prefix) is letters and digits only, so it needs no quoting
    /// in a JSON body or a `passgate sign --tokens` line.
    var isPlain: Bool {
        let text: String
        switch value {
        case .fixed(let fixed): text = fixed
        case .unique(let prefix): text = prefix
        case .token: return true
        }
        return !text.isEmpty && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// A value of the kind the bench sends with `token`, for checking it against the provider's
    /// declaration: the fixed text, the prefix with the longest tail bench/run adds (an
    /// 8-character run tag and a counter of up to 8 digits), or `token`.
    public func sample(token: String) -> String {
        switch value {
        case .fixed(let fixed): fixed
        case .unique(let prefix): prefix + "a1b2c3d4" + "12345678"
        case .token: token
        }
    }
}
