import OpenSSLCrypto
import PassgateCore

/// Umeng+ U-Verify (友盟+ 智能认证) as a Passgate provider, sold through the Alibaba Cloud
/// Marketplace: `/api/v1/mobile/info` for the number and `/api/v1/mobile/verify`, signed with the
/// API gateway's digest signature under the Marketplace AppSecret. The number comes back in clear.
public struct UmengProvider: CarrierProvider {
    public init() {}

    public var id: String { Umeng.providerID }

    public var appKeys: [String] { ["gatewayAppKey", "gatewayAppSecret"] }

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let request = try Self.request(app: try own(app, as: UmengApp.self), token: token, phoneNumber: nil, context: context)
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            Self.answer(reply) { parsed throws(PassgateError) in
                guard let mobile = parsed.mobile?.trimmingASCIISpaces, !mobile.isEmpty else { throw ProviderReply.badReply(.missingField("data.mobile")) }
                guard MSISDN.isMainland(mobile) else { throw ProviderReply.badReply(.malformedField("data.mobile", detail: "is not an 11-digit mainland number")) }
                return PhoneNumberOutcome(phoneNumber: mobile, carrierTaskId: parsed.requestId)
            }
        }
    }

    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let request = try Self.request(app: try own(app, as: UmengApp.self), token: token, phoneNumber: phoneNumber, context: context)
        return PreparedCall(provider: id, operation: .verify, request: request.providerRequest) { reply in
            Self.answer(reply) { parsed throws(PassgateError) in
                switch parsed.verifyResult {
                case "PASS": VerificationOutcome(result: .match, carrierTaskId: parsed.requestId)
                case "REJECT": VerificationOutcome(result: .mismatch, carrierTaskId: parsed.requestId)
                case "UNKNOWN": VerificationOutcome(result: .unknown, carrierTaskId: parsed.requestId)
                case nil: throw ProviderReply.badReply(.missingField("data.verifyResult"))
                default: throw ProviderReply.badReply(.malformedField("data.verifyResult", detail: "is not PASS, REJECT or UNKNOWN"))
                }
            }
        }
    }

    /// The answer to `reply`: a gateway refusal or a business failure by its code, else `success`.
    private static func answer<Value: Sendable>(
        _ reply: CarrierHTTPReply, _ success: (UmengReply) throws(PassgateError) -> Value
    ) -> ProviderAnswer<Value> {
        do throws(PassgateError) {
            let parsed = try UmengReplyParser.parse(reply)
            let entry = parsed.fromGateway ? Umeng.gatewayCode(parsed.code) : Umeng.codes[parsed.code]
            // A business code 200 without `success: true` is no success: kept raw, not billed.
            let succeeded = entry.error == nil && parsed.success && !parsed.fromGateway
            let result = Result { () throws(PassgateError) -> Value in
                guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.message) }
                guard parsed.success else { throw ProviderReply.badReply(.malformedField("success", detail: "is not true although code is 200")) }
                return try success(parsed)
            }
            return ProviderAnswer(rawCode: parsed.code, taskId: parsed.requestId, billable: succeeded, result: result)
        } catch {
            return .failure(error)
        }
    }

    private static func request(app: UmengApp, token: String, phoneNumber: String?, context: CallContext) throws(PassgateError) -> UmengRequest {
        let hex = MessageID.make().lowercased()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20).prefix(12)]
        do {
            return try UmengRequest(app: app, token: token, phoneNumber: phoneNumber, nonce: parts.joined(separator: "-"), timestamp: context.clock.nowMilliseconds())
        } catch {
            throw .internalError("cannot sign the Umeng request", underlying: error)
        }
    }
}
