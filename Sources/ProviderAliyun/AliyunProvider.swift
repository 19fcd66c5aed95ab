import OpenSSLCrypto
import PassgateCore

/// Alibaba Cloud's Phone Number Verification Service (Dypnsapi) as a Passgate provider: RPC
/// `GetMobile` and `VerifyMobile`, signed with HMAC-SHA1 under the AccessKey secret, with a fresh
/// `SignatureNonce` and a UTC `Timestamp` per call. The number comes back in clear (over TLS).
public struct AliyunProvider: CarrierProvider {
    public init() {}

    public var id: String { Aliyun.providerID }

    public var appKeys: [String] { ["accessKeyId", "secret", "regionId"] }

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: AliyunApp.self)
        let request = try Self.request(app: app, token: token, phoneNumber: nil, context: context)
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try AliyunReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Aliyun.code(parsed.code)
                let result = Result { () throws(PassgateError) -> PhoneNumberOutcome in
                    guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.message) }
                    guard let mobile = parsed.mobile?.trimmingASCIISpaces, !mobile.isEmpty else {
                        throw ProviderReply.badReply(.missingField("GetMobileResultDTO.Mobile"))
                    }
                    guard MSISDN.isMainland(mobile) else {
                        throw ProviderReply.badReply(.malformedField("GetMobileResultDTO.Mobile", detail: "is not an 11-digit mainland number"))
                    }
                    return PhoneNumberOutcome(phoneNumber: mobile, carrierTaskId: parsed.requestId)
                }
                return ProviderAnswer(rawCode: parsed.code, taskId: parsed.requestId, billable: entry.error == nil, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let app = try own(app, as: AliyunApp.self)
        let request = try Self.request(app: app, token: token, phoneNumber: phoneNumber, context: context)
        return PreparedCall(provider: id, operation: .verify, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try AliyunReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Aliyun.code(parsed.code)
                let result: Result<VerificationOutcome, PassgateError> = switch (entry.error, parsed.verifyResult) {
                case (nil, "PASS"): .success(VerificationOutcome(result: .match, carrierTaskId: parsed.requestId))
                case (nil, "REJECT"): .success(VerificationOutcome(result: .mismatch, carrierTaskId: parsed.requestId))
                case (nil, "UNKNOWN"): .success(VerificationOutcome(result: .unknown, carrierTaskId: parsed.requestId))
                case (nil, nil): .failure(ProviderReply.badReply(.missingField("GateVerifyResultDTO.VerifyResult")))
                case (nil, _): .failure(ProviderReply.badReply(.malformedField("GateVerifyResultDTO.VerifyResult", detail: "is not PASS, REJECT or UNKNOWN")))
                default: .failure(entry.makeError(providerMessage: parsed.message))
                }
                return ProviderAnswer(rawCode: parsed.code, taskId: parsed.requestId, billable: entry.error == nil, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    private static func request(app: AliyunApp, token: String, phoneNumber: String?, context: CallContext) throws(PassgateError) -> AliyunRequest {
        do {
            return try AliyunRequest(
                app: app, token: token, phoneNumber: phoneNumber, outId: context.requestId, nonce: MessageID.make(),
                timestamp: Timestamp.string(milliseconds: context.clock.nowMilliseconds(), style: .iso8601Seconds))
        } catch {
            throw .internalError("cannot sign the Alibaba Cloud request", underlying: error)
        }
    }
}
