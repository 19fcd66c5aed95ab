/// What the sandbox has seen since it was created; ``CarrierSandbox/stats`` and `GET /sandbox/stats`.
///
/// Every carrier call is counted once with the result code the sandbox decided on, whatever
/// fault was then applied to the answer (`faultsApplied` counts those).
public struct SandboxStats: Sendable, Equatable, Codable {
    /// `loginTokenValidate` requests answered (or faulted).
    public var loginCalls = 0
    /// `tokenValidate` requests answered (or faulted).
    public var verifyCalls = 0
    /// `loginTokenValidate` calls by result code, e.g. `["103000": 3, "104201": 1]`.
    public var loginResultCodes: [String: Int] = [:]
    /// `tokenValidate` calls by result code, e.g. `["000": 2, "606": 1]`.
    public var verifyResultCodes: [String: Int] = [:]
    /// Tokens minted (HTTP endpoint, ``CarrierSandbox/mintToken(appId:phoneNumber:product:)``, batches).
    public var tokensMinted = 0
    /// Tokens spent by a carrier call that passed signature validation.
    public var tokensConsumed = 0
    /// Carrier answers replaced by a fault, by fault name.
    public var faultsApplied: [String: Int] = [:]
    /// Carrier answers waiting out the configured latency now.
    public var answersDelayedNow = 0
    /// The most carrier answers that waited out the latency at the same time: above 1 shows the
    /// latency is applied to calls side by side, not one after another.
    public var mostAnswersDelayedAtOnce = 0

    /// Empty statistics.
    public init() {}
}
