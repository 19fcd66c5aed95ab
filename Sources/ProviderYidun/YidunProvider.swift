import OpenSSLCrypto
import PassgateCore

/// NetEase Yidun's one-click login as a Passgate provider: `POST /v1/oneclick/check` for the
/// number and `/v1/check` for number verification, both form-encoded and MD5-signed with the
/// product key's secret, with a fresh 32-character nonce and a millisecond timestamp per call.
/// The caller's `token` is Yidun's own token; the carrier's comes in `providerFields.accessToken`.
/// The number comes back in clear (over TLS).
public struct YidunProvider: CarrierProvider {
    public init() {}

    public var id: String { Yidun.providerID }

    public var appKeys: [String] { ["businessId", "secretId", "secretKey"] }

    /// The carrier's token, which the Yidun SDK returns next to Yidun's own: single use as well.
    public static let accessToken = ProviderField(name: "accessToken", required: true, maxLength: 2048, charset: .printableASCII, singleUse: true)

    public var providerFields: [ProviderField] { [Self.accessToken] }

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: YidunApp.self)
        let request = try Self.request(app: app, token: token, phoneNumber: nil, context: context)
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try YidunReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Yidun.codes[parsed.code]
                let phone = parsed.phone ?? ""
                let result = Result { () throws(PassgateError) -> PhoneNumberOutcome in
                    guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.message) }
                    guard !phone.isEmpty else { throw Yidun.noNumber.makeError(providerMessage: "resultCode \(parsed.resultCode ?? "absent")") }
                    guard MSISDN.isMainland(phone) else {
                        throw ProviderReply.badReply(.malformedField("data.phone", detail: "is not an 11-digit mainland number"))
                    }
                    return PhoneNumberOutcome(phoneNumber: phone, carrierTaskId: nil)
                }
                // Yidun has no billing field: billed when it answered with a number.
                return ProviderAnswer(rawCode: parsed.code, taskId: nil, billable: entry.error == nil && !phone.isEmpty, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let app = try own(app, as: YidunApp.self)
        let request = try Self.request(app: app, token: token, phoneNumber: phoneNumber, context: context)
        return PreparedCall(provider: id, operation: .verify, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try YidunReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Yidun.codes[parsed.code]
                let result: Result<VerificationOutcome, PassgateError> = switch (entry.error, parsed.verifyResult) {
                case (nil, "1"): .success(VerificationOutcome(result: .match, carrierTaskId: nil))
                case (nil, "2"): .success(VerificationOutcome(result: .mismatch, carrierTaskId: nil))
                case (nil, "3"): .success(VerificationOutcome(result: .unknown, carrierTaskId: nil))
                case (nil, nil): .failure(ProviderReply.badReply(.missingField("data.result")))
                case (nil, _): .failure(ProviderReply.badReply(.malformedField("data.result", detail: "is not 1, 2 or 3")))
                default: .failure(entry.makeError(providerMessage: parsed.message))
                }
                let answered = parsed.verifyResult == "1" || parsed.verifyResult == "2"
                return ProviderAnswer(rawCode: parsed.code, taskId: nil, billable: entry.error == nil && answered, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    private static func request(app: YidunApp, token: String, phoneNumber: String?, context: CallContext) throws(PassgateError) -> YidunRequest {
        // The server checked the declaration: a required field is always here.
        guard let accessToken = context.providerFields[accessToken.name] else {
            throw .invalidRequest(field: ProviderFields.member + "." + accessToken.name, "is required by the yidun provider; pass the carrier token its SDK returned")
        }
        do {
            return try YidunRequest(
                app: app, token: token, accessToken: accessToken, phoneNumber: phoneNumber, nonce: MessageID.make(),
                timestamp: String(context.clock.nowMilliseconds()))
        } catch {
            throw .internalError("cannot sign the NetEase Yidun request", underlying: error)
        }
    }
}
