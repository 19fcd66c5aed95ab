import OpenSSLCrypto
import PassgateCore

/// Tencent Cloud's number authentication (号码认证, rapidauth) as a Passgate provider:
/// `POST /v5/rapidauth/validate` with the `sdkappid` and a fresh 10-digit `random` in the query,
/// a plain SHA-256 `sig` over the AppKey, the random and the time in seconds. The number comes
/// back in clear (over TLS). Tencent documents no number verification for it.
public struct TencentProvider: CarrierProvider {
    public init() {}

    public var id: String { Tencent.providerID }

    public var appKeys: [String] { ["appKey"] }

    /// The carrier the SDK named (`mobile`, `unicom`, `telecom`); optional, and not single use.
    public static let carrier = ProviderField(
        name: "carrier", required: false, minLength: 6, maxLength: 7, charset: .init("lower-case ASCII letters", allowing: 0x61...0x7A), singleUse: false)

    public var providerFields: [ProviderField] { [Self.carrier] }

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: TencentApp.self)
        let carrier = context.providerFields[Self.carrier.name]
        if let carrier, !TencentRequest.carriers.contains(carrier) {
            throw .invalidRequest(field: ProviderFields.member + "." + Self.carrier.name, "must be mobile, unicom or telecom")
        }
        let request: TencentRequest
        do {
            request = try TencentRequest(
                app: app, token: token, carrier: carrier, random: try TencentRequest.makeRandom(),
                time: String(context.clock.nowMilliseconds() / 1000))
        } catch {
            throw .internalError("cannot sign the Tencent Cloud request", underlying: error)
        }
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try TencentReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Tencent.codes[parsed.code]
                let result = Result { () throws(PassgateError) -> PhoneNumberOutcome in
                    guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.message) }
                    guard let mobile = parsed.mobile, !mobile.isEmpty else { throw ProviderReply.badReply(.missingField("mobile")) }
                    guard MSISDN.isMainland(mobile) else {
                        throw ProviderReply.badReply(.malformedField("mobile", detail: "is not an 11-digit mainland number"))
                    }
                    return PhoneNumberOutcome(phoneNumber: mobile, carrierTaskId: nil)
                }
                // No billing field: billed when Tencent answered a number.
                return ProviderAnswer(rawCode: parsed.code, taskId: nil, billable: (try? result.get()) != nil, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Tencent Cloud's number authentication has no verification API in its documentation.
    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        throw noVerification(for: try own(app, as: TencentApp.self), name: "Tencent Cloud's number authentication")
    }
}
