/// A provider's decision on one call, before any fault is applied: what the host needs to count,
/// log, force another code and write the reply. Each emulator has its own, with its reply's shape.
public protocol EmulatorAnswer: Sendable {
    /// The provider's id.
    var provider: String { get }
    /// The product the call turned out to be for.
    var product: SandboxProduct { get }
    /// The provider's result code.
    var code: String { get }
    /// The request's msgid (or the provider's equivalent), echoed in the reply; "" when none was readable.
    var echo: String { get }
    /// The appid the call was for, "" when unknown.
    var appId: String { get }
    /// The real number behind the token, for the masked log line only.
    var phoneNumber: String? { get }
    /// The HTTP status of the reply (200 for most providers, whatever the code).
    var httpStatus: Int { get }
    /// Whether this is a success (a number, or a billed match or mismatch).
    var isSuccess: Bool { get }
    /// This answer with `code` instead, described as the provider's tables describe it, without
    /// the number. The task id stays: the provider bills what it looked up.
    func forced(_ code: String) -> Self
    /// The reply body, echoing `echo` (``echo`` unless a fault says otherwise).
    func body(echo: String) -> [UInt8]
    /// Headers the reply carries besides `Content-Type` (an API gateway's `X-Ca-Error-Message`).
    var headers: [(String, String)] { get }
}

extension EmulatorAnswer {
    public var headers: [(String, String)] { [] }
}

/// An answer whose code and description are set by its check sequence.
public protocol DescribedEmulatorAnswer: EmulatorAnswer {
    var code: String { get set }
    var desc: String { get set }
}

extension DescribedEmulatorAnswer {
    /// This answer with `code` and `desc` set: the final word of a check sequence.
    public func answer(_ code: String, _ desc: String) -> Self {
        var copy = self
        copy.code = code
        copy.desc = desc
        return copy
    }
}
