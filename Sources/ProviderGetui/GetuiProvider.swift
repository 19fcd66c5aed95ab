import OpenSSLCrypto
import PassgateCore

/// Getui's 个验 (one-click login, `gy_get_pn` v2) as a Passgate provider: the SDK's token and its
/// device id (`gyuid`) signed with SHA-256 over `appSecret + timestamp + masterSecret`; the number
/// comes back AES-128-CBC encrypted under the MasterSecret's first 16 bytes. Getui offers no
/// number verification.
public struct GetuiProvider: CarrierProvider {
    public init() {}

    public var id: String { Getui.providerID }

    public var appKeys: [String] { ["appSecret", "masterSecret"] }

    /// `gyuid`: the SDK's device id. It names the device, not the flow, so it is not single use.
    /// Getui publishes no format: the limits are wide (UNCERTAIN, docs/getui.md).
    public var providerFields: [ProviderField] { Self.fields }

    static let fields = [ProviderField(name: "gyuid", required: true, maxLength: 128, charset: .alphanumeric(plus: "-_"), singleUse: false)]

    /// The AES-CBC IV of the number: sixteen ASCII zeros.
    static let numberIV = Array("0000000000000000".utf8)

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: GetuiApp.self)
        guard let gyuid = context.providerFields["gyuid"] else { throw .internalError("a Getui call without its gyuid") }
        let request: GetuiRequest
        do {
            request = try GetuiRequest(app: app, token: token, gyuid: gyuid, timestamp: context.clock.nowMilliseconds())
        } catch {
            throw .internalError("cannot sign the Getui request", underlying: error)
        }
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try GetuiReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Getui.codes[parsed.code]
                let result = Result { () throws(PassgateError) -> PhoneNumberOutcome in
                    guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.message) }
                    guard let pn = parsed.pn?.trimmingASCIISpaces, !pn.isEmpty else { throw ProviderReply.badReply(.missingField("data.data.pn")) }
                    return PhoneNumberOutcome(phoneNumber: try MSISDN.decryptAESCBC(pn, key: app.numberKey, iv: Self.numberIV), carrierTaskId: nil)
                }
                // Getui sends no billing flag: a success is counted billable.
                return ProviderAnswer(rawCode: parsed.code, taskId: nil, billable: entry.error == nil, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        throw noVerification(for: try own(app, as: GetuiApp.self), name: "Getui")
    }
}
