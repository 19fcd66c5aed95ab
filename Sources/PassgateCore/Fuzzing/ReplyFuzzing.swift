/// A provider's fuzz entry, in its own `<Name>Provider+Fuzz.swift`: what the reply-fuzz host
/// (`ReplyFuzzHost` in `PassgateFuzzing`, run by `Fuzz/run` for every registered provider) needs
/// beyond the provider's production `phoneNumber`/`verify`. The host prepares the calls, hands
/// fuzzed replies to their `interpret`, and checks what holds for every provider (no crash, no
/// token, secret or number in an error's texts, a failure of the reply or carrier layer); the
/// entry adds what holds for this provider alone.
public protocol ReplyFuzzing: CarrierProvider {
    /// An app of this provider with made-up credentials, and those credentials' values, which no
    /// error text may contain. Made once per fuzzing process.
    func fuzzApp() throws -> FuzzApp
    /// The reply `input` with the ids of `call` put in where the carrier echoes ours (CMCC's
    /// msgid), so that a fuzzed reply can still answer this call. Default: unchanged.
    func fuzzReply(_ input: ReplyInput, to call: FuzzedCall) -> ReplyInput
    /// What this provider's answer to `call` must satisfy beyond the generic rules: nil, or what
    /// is wrong. `input` is the reply as interpreted (after ``fuzzReply(_:to:)``); the answer's
    /// value is a `PhoneNumberOutcome` or a `VerificationOutcome`, as `call.operation` says.
    func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String?
    /// Whether `code`, a raw code this provider's parser accepted, is one of its own codes with 7
    /// digits (MobTech's), which the host's "no run of 7+ digits" check lets through where an error
    /// quotes it. Default: none.
    func isLongCode(_ code: String) -> Bool
}

extension ReplyFuzzing {
    public func fuzzReply(_ input: ReplyInput, to call: FuzzedCall) -> ReplyInput { input }
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? { nil }
    public func isLongCode(_ code: String) -> Bool { false }
}

/// An app for fuzzing, and the secret values in it (a secret, an app key, a key's PEM) that an
/// error text must never contain.
public struct FuzzApp: Sendable {
    public var app: any ProviderApp
    public var secrets: [String]
    /// The `providerFields` every fuzzed call carries: values in the provider's declared format
    /// for the fields it requires (a flow id), none for a provider that reads none.
    public var providerFields: ProviderFields

    public init(app: any ProviderApp, secrets: [String], providerFields: ProviderFields = .none) {
        self.app = app
        self.secrets = secrets
        self.providerFields = providerFields
    }
}

/// One call the host prepared through the provider's production `phoneNumber` or `verify`.
public struct FuzzedCall: Sendable {
    public var operation: CarrierCall.Operation
    /// The signed request; its `msgid` is the id a carrier echoes.
    public var request: ProviderRequest
    /// The token sent (no digits, so a digit run in an error never comes from it).
    public var token: String
    /// `CallContext.requestId` of the call (`exID`, `outId`): no digits either.
    public var requestId: String

    public init(operation: CarrierCall.Operation, request: ProviderRequest, token: String, requestId: String) {
        self.operation = operation
        self.request = request
        self.token = token
        self.requestId = requestId
    }
}
