import OpenSSLCrypto
import PassgateCore

/// Shanyan (Chuanglan 创蓝闪验) as a Passgate provider: `mobile-query` for the number and
/// `mobile-validate` for number verification, form bodies signed with HMAC-SHA256 under the
/// appKey, the number AES-128-CBC encrypted under a key derived from the appKey (or RSA-encrypted
/// to the app's key), `chargeStatus` as the billing flag.
public struct ShanyanProvider: CarrierProvider {
    public init() {}

    public var id: String { Shanyan.providerID }

    public var appKeys: [String] { ["appKey", "privateKey", "signCase"] }

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: ShanyanApp.self)
        let request = try Self.request(app: app, token: token, phoneNumber: nil, context: context)
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try ShanyanReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Shanyan.codes[parsed.code]
                let result = Result { () throws(PassgateError) -> PhoneNumberOutcome in
                    guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.message) }
                    guard let encrypted = parsed.mobileName, !encrypted.isEmpty else { throw ProviderReply.badReply(.missingField("data.mobileName")) }
                    return PhoneNumberOutcome(phoneNumber: try Self.decrypt(encrypted, app: app), carrierTaskId: parsed.tradeNo)
                }
                return ProviderAnswer(rawCode: parsed.code, taskId: parsed.tradeNo, billable: parsed.charged, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let app = try own(app, as: ShanyanApp.self)
        let request = try Self.request(app: app, token: token, phoneNumber: phoneNumber, context: context)
        return PreparedCall(provider: id, operation: .verify, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try ShanyanReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = Shanyan.codes[parsed.code]
                let result: Result<VerificationOutcome, PassgateError> = switch (entry.error, parsed.isVerify) {
                case (nil, "1"): .success(VerificationOutcome(result: .match, carrierTaskId: parsed.tradeNo))
                case (nil, "0"): .success(VerificationOutcome(result: .mismatch, carrierTaskId: parsed.tradeNo))
                case (nil, nil): .failure(ProviderReply.badReply(.missingField("data.isVerify")))
                case (nil, _): .failure(ProviderReply.badReply(.malformedField("data.isVerify", detail: "is neither 1 nor 0")))
                default: .failure(entry.makeError(providerMessage: parsed.message))
                }
                return ProviderAnswer(rawCode: parsed.code, taskId: parsed.tradeNo, billable: parsed.charged, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The AES key and IV of an app's numbers: the first and last 16 characters of the lowercase
    /// hex MD5 of its appKey, as ASCII bytes.
    public static func aesKeyAndIV(appKey: String) throws -> (key: [UInt8], iv: [UInt8]) {
        let hex = Array(Hex.lowercase(try Digest.md5(Array(appKey.utf8))).utf8)
        return (Array(hex[0..<16]), Array(hex[16..<32]))
    }

    static func decrypt(_ mobileName: String, app: ShanyanApp) throws(PassgateError) -> String {
        if let key = app.privateKey { return try MSISDN.decrypt(mobileName, with: key) }
        let derived: (key: [UInt8], iv: [UInt8])
        do {
            derived = try aesKeyAndIV(appKey: app.appKey)
        } catch {
            throw .internalError("cannot derive the AES key (MD5 unavailable)", underlying: error)
        }
        return try MSISDN.decryptAESCBC(mobileName, key: derived.key, iv: derived.iv)
    }

    private static func request(app: ShanyanApp, token: String, phoneNumber: String?, context: CallContext) throws(PassgateError) -> ShanyanRequest {
        do {
            return try ShanyanRequest(app: app, token: token, phoneNumber: phoneNumber, outId: context.requestId)
        } catch {
            throw .internalError("cannot sign the Shanyan request", underlying: error)
        }
    }
}
