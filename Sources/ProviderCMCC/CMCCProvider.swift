import OpenSSLCrypto
import PassgateCore

/// China Mobile as a Passgate provider: reads CMCC apps, builds and signs `loginTokenValidate`
/// and `tokenValidate` requests, reads the replies, decrypts RSA-mode numbers and maps every
/// documented result code. It never sends anything itself (`PreparedCall.send` does, once).
public struct CMCCProvider: CarrierProvider {
    public init() {}

    public var id: String { CMCC.providerID }

    public var appKeys: [String] { ["signMode", "secret", "appKey", "privateKey"] }

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: CMCCApp.self)
        let request: CMCCLoginRequest
        do {
            request = try CMCCLoginRequest(
                appId: app.appId, token: token, signing: app.login, msgid: MessageID.make(), systemtime: BeijingTimestamp.now(context.clock))
        } catch {
            throw .internalError("cannot sign the login request", underlying: error)
        }
        return PreparedCall(
            provider: id, operation: .phoneNumber, request: Self.post(CMCCLoginRequest.path, request.body, msgid: request.msgid)
        ) { reply in
            do throws(PassgateError) {
                let parsed = try CMCCReplyParser.login(status: reply.status, contentType: reply.contentType, body: reply.body, expectedMsgid: request.msgid)
                let entry = CMCC.loginCodes[parsed.resultCode]
                // Billing follows the carrier's code: a success whose number we then fail to decrypt is still billed.
                return ProviderAnswer(
                    rawCode: parsed.resultCode, taskId: parsed.taskId, billable: entry.error == nil,
                    result: Result { () throws(PassgateError) in try Self.phoneNumber(from: parsed, entry: entry, app: app) })
            } catch {
                return .failure(error)
            }
        }
    }

    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let app = try own(app, as: CMCCApp.self)
        guard let keying = app.verify else {
            throw PassgateError(
                .appNotEnabled, .local("no appKey configured for \(app.appId)"),
                message: "Number verification needs the app's appKey in Passgate's configuration (apps[].appKey) for appId \(app.appId)."
            )
        }
        let request: CMCCVerifyRequest
        do {
            request = try CMCCVerifyRequest(
                appId: app.appId, token: token, phoneNumber: phoneNumber, keying: keying,
                msgId: MessageID.make().uppercased(), timestamp: BeijingTimestamp.now(context.clock))
        } catch {
            throw .internalError("cannot sign the verification request", underlying: error)
        }
        return PreparedCall(
            provider: id, operation: .verify, request: Self.post(CMCCVerifyRequest.path, request.body, msgid: request.msgId)
        ) { reply in
            do throws(PassgateError) {
                let parsed = try CMCCReplyParser.verify(status: reply.status, contentType: reply.contentType, body: reply.body, expectedMsgId: request.msgId)
                let entry = CMCC.verifyCodes[parsed.resultCode]
                let result: Result<VerificationOutcome, PassgateError> = switch parsed.resultCode {
                case _ where entry.error == nil && !(200..<300).contains(parsed.httpStatus):
                    .failure(Self.contradictoryStatus(parsed.httpStatus, code: parsed.resultCode))
                case "000": .success(VerificationOutcome(result: .match, carrierTaskId: parsed.taskId))
                case "001": .success(VerificationOutcome(result: .mismatch, carrierTaskId: parsed.taskId))
                default: .failure(entry.makeError(providerMessage: parsed.resultDesc))
                }
                return ProviderAnswer(rawCode: parsed.resultCode, taskId: parsed.taskId, billable: entry.error == nil, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    /// A success code must come with a number we can read; anything else maps through the table.
    static func phoneNumber(from reply: CMCCLoginReply, entry: ProviderResultCode, app: CMCCApp) throws(PassgateError) -> PhoneNumberOutcome {
        guard entry.error == nil else { throw entry.makeError(providerMessage: reply.desc) }
        guard (200..<300).contains(reply.httpStatus) else { throw contradictoryStatus(reply.httpStatus, code: reply.resultCode) }
        guard let msisdn = reply.msisdn, !msisdn.isEmpty else {
            throw ProviderReply.badReply(.missingField("msisdn"))
        }
        if let key = app.decryptionKey {
            return PhoneNumberOutcome(phoneNumber: try MSISDN.decrypt(msisdn, with: key), carrierTaskId: reply.taskId)
        }
        guard MSISDN.isMainland(msisdn) else {
            let hint = msisdn.count > 100 ? " (it looks like RSA ciphertext: is the app set to RSA encryption in the CMCC console? then use signMode: rsa)" : ""
            throw ProviderReply.badReply(.malformedField("msisdn", detail: "is not an 11-digit mainland number\(hint)"))
        }
        return PhoneNumberOutcome(phoneNumber: msisdn, carrierTaskId: reply.taskId)
    }

    /// A success code under an error status: which of the two to believe is unknowable, so
    /// neither is; the number, if any, is not used.
    static func contradictoryStatus(_ status: Int, code: String) -> PassgateError {
        ProviderReply.badReply(.malformedField("resultCode", detail: "is the success code \(code) but came with HTTP \(status)"))
    }

    /// CMCC takes JSON over POST on both endpoints.
    private static func post(_ path: String, _ body: [UInt8], msgid: String) -> ProviderRequest {
        ProviderRequest(
            method: .post, path: path, headers: [("Content-Type", "application/json;charset=UTF-8"), ("Accept", "application/json")], body: body,
            msgid: msgid)
    }
}
