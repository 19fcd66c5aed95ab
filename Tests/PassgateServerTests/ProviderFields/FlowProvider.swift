import PassgateCore

/// A provider that reads values beyond the token, as Geetest's flow id does; it exists only in
/// this test target. It declares `processId` (required, single-use), `authcode` (optional,
/// single-use) and `carrier` (optional, not single-use), and otherwise speaks the echo provider's
/// protocol to the same `EchoCarrier`, sending the fields it was given next to the token, so a
/// test can see they reached the provider.
struct FlowProvider: CarrierProvider {
    static let id = "flow"
    static let fields = [
        ProviderField(name: "processId", required: true, minLength: 32, maxLength: 32, charset: .hexDigits, singleUse: true),
        ProviderField(name: "authcode", required: false, maxLength: 16, charset: .alphanumeric, singleUse: true),
        ProviderField(name: "carrier", required: false, maxLength: 8, charset: .alphanumeric(plus: "-_"), singleUse: false),
    ]

    private let echo = EchoProvider()

    var id: String { Self.id }
    var appKeys: [String] { echo.appKeys }
    var providerFields: [ProviderField] { Self.fields }

    func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? { echo.readApp(fields) }

    func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        // The server checked the fields against the declaration: a required one is always here.
        guard context.providerFields["processId"] != nil else { throw .internalError("a flow call without its processId") }
        var call = try echo.phoneNumber(app: app, token: token, context: context)
        call.provider = id
        var fields = JSONObjectWriter()
        for name in context.providerFields.names { fields.add(name, context.providerFields[name]) }
        // One flat object: the flow's members, then the echo's (`{"app":…}` without its brace).
        call.request.body = Array(fields.finish().dropLast()) + [UInt8(ascii: ",")] + call.request.body.dropFirst()
        return call
    }

    /// The phone-number call, its number compared with `phoneNumber`.
    func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let call = try self.phoneNumber(app: app, token: token, context: context)
        return PreparedCall(provider: id, operation: .verify, request: call.request) { reply in
            let answer = call.interpret(reply)
            return ProviderAnswer(rawCode: answer.rawCode, taskId: answer.taskId, billable: answer.billable, result: answer.result.map {
                VerificationOutcome(result: $0.phoneNumber == phoneNumber ? .match : .mismatch, carrierTaskId: $0.carrierTaskId)
            })
        }
    }
}
