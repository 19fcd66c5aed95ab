/// The part of an emulated provider's decision that every provider has, whatever its reply looks
/// like: the code and its description, what the request said about itself, and what the token
/// turned out to hold. A provider's answer type keeps one of these and adds only its own fields
/// (a risk score, a timestamp, an HTTP status), so the checks of every emulator read alike.
public struct EmulatorDecision: Sendable {
    /// The product the call turned out to be for.
    public var product: SandboxProduct
    /// The provider's result code, "" until a check decides.
    public var code = ""
    /// The code's description, as the provider's tables word it.
    public var desc = ""
    /// The request's msgid (or the provider's equivalent) to echo; "" when none was readable.
    public var echo = ""
    /// The appid the call was for; "" when unknown.
    public var appId = ""
    /// The number as the reply carries it (plain, or encrypted for the app), on success only.
    public var msisdn: String?
    /// The provider's id for the lookup; it bills what it looked up, so a forced code keeps it.
    public var taskId: String?
    /// A verification's verdict in the provider's own words ("PASS", "1", "0"), on success only.
    public var verdict: String?
    /// The real number behind the token, for the host's masked log line only.
    public var phoneNumber: String?

    /// An undecided call for `product`.
    public init(_ product: SandboxProduct) { self.product = product }
}

/// An emulator answer built around an ``EmulatorDecision``: the shared fields come from it, so a
/// provider's answer type declares only `decision`, its own extras, `provider`, `httpStatus`,
/// `isSuccess`, `forced` and `body`.
public protocol DecidedEmulatorAnswer: DescribedEmulatorAnswer {
    var decision: EmulatorDecision { get set }
}

extension DecidedEmulatorAnswer {
    public var product: SandboxProduct { decision.product }
    public var code: String {
        get { decision.code }
        set { decision.code = newValue }
    }
    public var desc: String {
        get { decision.desc }
        set { decision.desc = newValue }
    }
    public var echo: String {
        get { decision.echo }
        set { decision.echo = newValue }
    }
    public var appId: String {
        get { decision.appId }
        set { decision.appId = newValue }
    }
    public var msisdn: String? {
        get { decision.msisdn }
        set { decision.msisdn = newValue }
    }
    public var taskId: String? {
        get { decision.taskId }
        set { decision.taskId = newValue }
    }
    public var verdict: String? {
        get { decision.verdict }
        set { decision.verdict = newValue }
    }
    public var phoneNumber: String? {
        get { decision.phoneNumber }
        set { decision.phoneNumber = newValue }
    }

    /// This answer with `code` forced, described by `meaning` (the provider's table) or as forced
    /// by the sandbox's faults, without the number or the verdict: the shared half of
    /// ``EmulatorAnswer/forced(_:)``.
    public func forcing(_ code: String, meaning: String?) -> Self {
        var copy = answer(code, meaning ?? "forced by PUT /sandbox/faults")
        copy.msisdn = nil
        copy.verdict = nil
        return copy
    }
}
