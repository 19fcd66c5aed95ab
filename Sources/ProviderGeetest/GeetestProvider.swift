import OpenSSLCrypto
import PassgateCore

/// Geetest OneLogin (the number, `check_phone`) and OnePass (number verification,
/// `check_gateway`, on its own host: `providers.geetest.verifyBaseURLs`) as a Passgate provider.
/// Each call carries the SDK's flow id (`processId`) next to the token, signed with HMAC-SHA256
/// under the app_key over `app_id&&timestamp` (milliseconds); the number comes back AES-256-CBC
/// encrypted under the app_key unless the app turns that off.
public struct GeetestProvider: CarrierProvider {
    public init() {}

    public var id: String { Geetest.providerID }

    public var appKeys: [String] { ["appKey", "encryptNumber"] }

    /// `processId` (the SDK's `process_id`, spent by its first call) and China Telecom's
    /// `authcode`, both single use. Geetest publishes no format for either: the limits are wide
    /// and the charset is what the SDKs are seen to return (UNCERTAIN, docs/geetest.md).
    public var providerFields: [ProviderField] { Self.fields }

    static let fields = [
        ProviderField(name: "processId", required: true, maxLength: 64, charset: .alphanumeric(plus: "-_"), singleUse: true),
        ProviderField(name: "authcode", required: false, maxLength: 256, charset: .printableASCII, singleUse: true),
    ]

    /// The AES-CBC IV of an encrypted number: sixteen ASCII zeros, as Geetest's server demo has it.
    static let numberIV = Array("0000000000000000".utf8)

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: GeetestApp.self)
        let processId = try Self.processId(context)
        let request = try Self.signed {
            try GeetestRequest.phoneNumber(
                app: app, token: token, processId: processId, authcode: context.providerFields["authcode"], timestamp: Self.timestamp(context))
        }
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try GeetestReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Geetest.codes[parsed.status]
                let result = Result { () throws(PassgateError) -> PhoneNumberOutcome in
                    guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.errorMessage) }
                    guard let number = parsed.result?.trimmingASCIISpaces, !number.isEmpty else { throw ProviderReply.badReply(.missingField("result")) }
                    if app.encryptNumber {
                        return PhoneNumberOutcome(phoneNumber: try MSISDN.decryptAESCBC(number, key: Array(app.appKey.utf8), iv: Self.numberIV), carrierTaskId: nil)
                    }
                    guard MSISDN.isMainland(number) else {
                        throw ProviderReply.badReply(.malformedField("result", detail: "is not an 11-digit mainland number (encryptNumber is false)"))
                    }
                    return PhoneNumberOutcome(phoneNumber: number, carrierTaskId: nil)
                }
                // Geetest says in `charge` whether it bills the call; without it, a success is billed.
                return ProviderAnswer(rawCode: parsed.status, taskId: nil, billable: parsed.charge ?? (entry.error == nil), result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let app = try own(app, as: GeetestApp.self)
        let processId = try Self.processId(context)
        let request = try Self.signed {
            try GeetestRequest.verify(app: app, token: token, processId: processId, phoneNumber: phoneNumber, timestamp: Self.timestamp(context))
        }
        return PreparedCall(provider: id, operation: .verify, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try GeetestReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Geetest.codes[parsed.status]
                let result: Result<VerificationOutcome, PassgateError> = switch (entry.error, parsed.result?.trimmingASCIISpaces) {
                case (nil, "0"): .success(VerificationOutcome(result: .match, carrierTaskId: nil))
                case (nil, "1"): .success(VerificationOutcome(result: .mismatch, carrierTaskId: nil))
                case (nil, nil): .failure(ProviderReply.badReply(.missingField("result")))
                case (nil, _): .failure(ProviderReply.badReply(.malformedField("result", detail: "is not \"0\" (match) or \"1\" (mismatch)")))
                default: .failure(entry.makeError(providerMessage: parsed.errorMessage))
                }
                let answered = (try? result.get()) != nil
                return ProviderAnswer(rawCode: parsed.status, taskId: nil, billable: parsed.charge ?? answered, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The server checked `providerFields` against ``providerFields``: a missing `processId` here is a bug.
    private static func processId(_ context: CallContext) throws(PassgateError) -> String {
        guard let processId = context.providerFields["processId"] else { throw .internalError("a Geetest call without its processId") }
        return processId
    }

    /// Milliseconds since the epoch from the call's clock, as Geetest wants them (12005 otherwise).
    static func timestamp(_ context: CallContext) -> String { String(context.clock.nowMilliseconds()) }

    private static func signed(_ make: () throws -> GeetestRequest) throws(PassgateError) -> GeetestRequest {
        do {
            return try make()
        } catch {
            throw .internalError("cannot sign the Geetest request", underlying: error)
        }
    }
}
