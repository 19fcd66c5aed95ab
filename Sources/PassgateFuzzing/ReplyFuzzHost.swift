import PassgateCore

/// Fuzzes any registered provider's reply reading the way the server uses it: the provider prepares
/// a phone-number call (and a verification, when its fuzz app can verify) through its production
/// `phoneNumber`/`verify`, and each fuzz input becomes a reply (``ReplyInput``) to those calls, read
/// by the calls' own `interpret`. What every provider must satisfy is checked here
/// (`ReplyFuzzHost+Invariants.swift`), what one provider must, in its `+Fuzz.swift` (``ReplyFuzzing``).
/// Nothing here names a provider: `Fuzz/run` fuzzes every id of the registry.
public struct ReplyFuzzHost: Sendable {
    /// Why a host cannot be made for a provider, naming it and what is missing.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The token of the prepared calls: no digits, so a digit run in an error comes from the reply.
    public static let token = "fuzz-token-abcdef"
    /// The request id of the prepared calls (what an aggregator echoes, e.g. an `exID`): no digits either.
    public static let requestId = "req-abcdefabcdef"
    /// The number a verification checks.
    public static let phoneNumber = "13800138000"

    public let provider: any ReplyFuzzing
    let app: FuzzApp
    /// The phone-number call every input answers.
    let phoneNumberCall: (call: FuzzedCall, prepared: PreparedCall<PhoneNumberOutcome>)
    /// The verification every input also answers; nil when the fuzz app cannot verify.
    let verifyCall: (call: FuzzedCall, prepared: PreparedCall<VerificationOutcome>)?
    /// Whether error texts are held to "no run of 7+ digits" (`PASSGATE_FUZZ_REDACTION`).
    let checkRedaction: Bool

    /// The ids in `registry` whose provider has a fuzz entry, sorted: what `Fuzz/run` fuzzes.
    public static func providerIDs(in registry: ProviderRegistry) -> [String] {
        registry.ids.filter { registry[$0] is any ReplyFuzzing }
    }

    /// A host for provider `id` of `registry`, its app made and its calls prepared once: every
    /// input answers the same requests (a run is repeatable), and signing per input made fuzzing
    /// 2-9x slower. A process that keeps the host in a global until exit drops it before
    /// LeakSanitizer's exit check (`Fuzz/Sources/FuzzProviderReply`), which cannot follow Swift's
    /// tagged String pointers and would report the calls' msgid as leaked.
    public init(registry: ProviderRegistry, id: String, checkRedaction: Bool = true) throws(Refusal) {
        guard let registered = registry[id] else {
            throw Refusal(description: "provider \(id) is not registered (registered: \(registry.ids.joined(separator: ", ")))")
        }
        guard let provider = registered as? any ReplyFuzzing else {
            throw Refusal(description: "provider \(id) has no fuzz entry (a ReplyFuzzing conformance in its +Fuzz.swift)")
        }
        let app: FuzzApp
        do {
            app = try provider.fuzzApp()
        } catch {
            throw Refusal(description: "provider \(id): its fuzz app cannot be made: \(error)")
        }
        do throws(PassgateError) {
            phoneNumberCall = try Self.phoneNumberCall(provider, app)
        } catch {
            throw Refusal(description: "provider \(id): its fuzz app cannot prepare a phone-number call: \(error.message)")
        }
        // A provider or app that cannot verify (no key for it) is fuzzed on phone-number replies only.
        verifyCall = try? Self.verifyCall(provider, app)
        self.provider = provider
        self.app = app
        self.checkRedaction = checkRedaction
    }

    /// Reads `bytes` (a ``ReplyInput``) as the reply to each prepared call and returns every broken
    /// invariant, empty when all hold. An empty input is no reply and passes.
    public func check(_ bytes: [UInt8]) -> [String] {
        guard let input = ReplyInput(bytes) else { return [] }
        var problems: [String] = []
        let login = provider.fuzzReply(input, to: phoneNumberCall.call)
        let loginAnswer = phoneNumberCall.prepared.interpret(login.reply)
        problems += genericProblems(loginAnswer, call: phoneNumberCall.call).map { "phone number: \($0)" }
        if let problem = provider.checkAnswer(loginAnswer, input: login, call: phoneNumberCall.call) { problems.append("phone number: \(problem)") }
        if let verifyCall {
            let verify = provider.fuzzReply(input, to: verifyCall.call)
            let verifyAnswer = verifyCall.prepared.interpret(verify.reply)
            problems += genericProblems(verifyAnswer, call: verifyCall.call).map { "verify: \($0)" }
            if let problem = provider.checkAnswer(verifyAnswer, input: verify, call: verifyCall.call) { problems.append("verify: \(problem)") }
        }
        return problems
    }

    /// What the provider made of `bytes` as the reply to each prepared call (nil for an empty
    /// input; no verification when the fuzz app cannot verify): for tests that a seed reaches the
    /// path it was written for.
    public func answers(_ bytes: [UInt8]) -> (phoneNumber: ProviderAnswer<PhoneNumberOutcome>, verify: ProviderAnswer<VerificationOutcome>?)? {
        guard let input = ReplyInput(bytes) else { return nil }
        let phoneNumber = phoneNumberCall.prepared.interpret(provider.fuzzReply(input, to: phoneNumberCall.call).reply)
        let verify = verifyCall.map { $0.prepared.interpret(provider.fuzzReply(input, to: $0.call).reply) }
        return (phoneNumber, verify)
    }

    /// Whether the fuzz app can verify: the provider's `verify` prepared a call.
    public var fuzzesVerify: Bool { verifyCall != nil }

    /// The phone-number call of `app`, for ``token``.
    private static func phoneNumberCall(
        _ provider: any ReplyFuzzing, _ app: FuzzApp
    ) throws(PassgateError) -> (call: FuzzedCall, prepared: PreparedCall<PhoneNumberOutcome>) {
        try prepare { () throws(PassgateError) in
            try provider.phoneNumber(app: app.app, token: token, context: CallContext(requestId: requestId, providerFields: app.providerFields))
        }
    }

    /// The verification of ``phoneNumber`` by `app`, for ``token``.
    private static func verifyCall(
        _ provider: any ReplyFuzzing, _ app: FuzzApp
    ) throws(PassgateError) -> (call: FuzzedCall, prepared: PreparedCall<VerificationOutcome>) {
        try prepare { () throws(PassgateError) in
            try provider.verify(
                app: app.app, token: token, phoneNumber: phoneNumber, context: CallContext(requestId: requestId, providerFields: app.providerFields))
        }
    }

    /// A call from `make`, made again (up to 64 times) while its random msgid has a run of 7+
    /// digits: a mismatch error names the msgid we sent, which must not look like a phone number.
    private static func prepare<Value>(
        _ make: () throws(PassgateError) -> PreparedCall<Value>
    ) throws(PassgateError) -> (call: FuzzedCall, prepared: PreparedCall<Value>) {
        var prepared = try make()
        var tries = 1
        while FuzzText.longestDigitRun(prepared.request.msgid) >= 7, tries < 64 {
            prepared = try make()
            tries += 1
        }
        return (FuzzedCall(operation: prepared.operation, request: prepared.request, token: token, requestId: requestId), prepared)
    }
}
