import OpenSSLCrypto
import PassgateCore

/// JVerification (JiGuang) as a Passgate provider: `loginTokenVerify` for the number, `verify`
/// for number verification, HTTP Basic authentication, the number RSA-decrypted with the app's key.
public struct JVerificationProvider: CarrierProvider {
    public init() {}

    public var id: String { JVerification.providerID }

    public var appKeys: [String] { ["appKey", "secret", "privateKey", "apiVersion", "endpoint"] }

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: JVerificationApp.self)
        guard let key = app.privateKey else {
            throw PassgateError(
                .appNotEnabled, .local("no privateKey configured for \(app.appId)"),
                message: "JVerification encrypts the number to the app's RSA key: set apps[].privateKey for appId \(app.appId) (its public half uploaded in the JiGuang console).")
        }
        let request = JVerificationRequest.login(app: app, token: token, exID: context.requestId)
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try JVerificationReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body, expectedExID: request.exID)
                let entry = JVerification.codes[parsed.code]
                let result = Result { () throws(PassgateError) -> PhoneNumberOutcome in
                    guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.content) }
                    guard parsed.code == "8000" else { throw Self.wrongOperation(parsed.code) }
                    guard let phone = parsed.phone, !phone.isEmpty else { throw ProviderReply.badReply(.missingField("phone")) }
                    return PhoneNumberOutcome(phoneNumber: try MSISDN.decrypt(phone, with: key), carrierTaskId: parsed.id, riskScore: parsed.score)
                }
                // Billed when JVerification answered the question (its success codes).
                return ProviderAnswer(rawCode: parsed.code, taskId: parsed.id, billable: entry.error == nil, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let app = try own(app, as: JVerificationApp.self)
        let request = JVerificationRequest.verify(app: app, token: token, phoneNumber: phoneNumber, exID: context.requestId)
        return PreparedCall(provider: id, operation: .verify, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try JVerificationReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body, expectedExID: request.exID)
                let entry = JVerification.codes[parsed.code]
                let result: Result<VerificationOutcome, PassgateError> = switch parsed.code {
                case _ where entry.error != nil: .failure(entry.makeError(providerMessage: parsed.content))
                case "9000": .success(VerificationOutcome(result: .match, carrierTaskId: parsed.id))
                case "9001": .success(VerificationOutcome(result: .mismatch, carrierTaskId: parsed.id))
                case "9002": .success(VerificationOutcome(result: .unknown, carrierTaskId: parsed.id))
                default: .failure(Self.wrongOperation(parsed.code))
                }
                // 9002 answers nothing; whether JiGuang bills it is not documented, so it is not counted.
                return ProviderAnswer(rawCode: parsed.code, taskId: parsed.id, billable: parsed.code == "9000" || parsed.code == "9001", result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    /// A success code of the other API (8000 to a verification, 9000 to a login): no answer to
    /// the question asked.
    static func wrongOperation(_ code: String) -> PassgateError {
        ProviderReply.badReply(.malformedField("code", detail: "is \(code), a success code of JVerification's other API"))
    }
}
