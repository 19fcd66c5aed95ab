import Foundation
import OpenSSLCrypto
import PassgateCore

/// A provider that exists only in this test target, to prove the plug-in claim: it is registered
/// the documented way (`ProviderRegistry.testing.adding([EchoProvider()])`) and nothing outside
/// this folder knows it. Its protocol is small but real: JSON over POST, an HMAC-SHA256 signature
/// over the token, a code, a number, a ticket id.
struct EchoProvider: CarrierProvider {
    static let id = "echo"

    var id: String { Self.id }
    var appKeys: [String] { ["secret"] }

    struct App: ProviderApp {
        let appId: String
        let secret: String
        var fingerprint: [UInt8] { (try? Digest.sha256(Array("\(appId):\(secret)".utf8))) ?? [] }
    }

    func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        if !fields.isPresent("secret") { fields.report("secret", "\(fields.path(of: "secret")) is required for an echo app") }
        guard let secret = fields.secret("secret", purpose: "makes every echo signature wrong"), !fields.hasProblems else { return nil }
        return App(appId: fields.appId, secret: secret)
    }

    func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        guard let app = app as? App else { throw .internalError("not an echo app") }
        let signature: String
        do {
            signature = Hex.lowercase(try Digest.hmacSHA256(key: Array(app.secret.utf8), data: Array(token.utf8)))
        } catch {
            throw .internalError("cannot sign", underlying: error)
        }
        let body = Array(#"{"app":"\#(app.appId)","token":"\#(token)","sig":"\#(signature)","ref":"\#(context.requestId)"}"#.utf8)
        let request = ProviderRequest(path: "/exchange", headers: [("Content-Type", "application/json")], body: body, msgid: context.requestId)
        return PreparedCall(provider: id, operation: .phoneNumber, request: request) { reply in
            guard (200..<300).contains(reply.status), let object = try? ParsedJSON.parse(reply.body), case .object = object,
                let code = object["code"]?.stringValue
            else {
                return .failure(PassgateError(.carrierBadResponse, .reply(.notJSON(body: BodyShape(body: reply.body, contentType: reply.contentType)))))
            }
            let ticket = object["ticket"]?.stringValue
            switch code {
            case "0":
                guard let number = object["number"]?.stringValue, MSISDN.isMainland(number) else {
                    return ProviderAnswer(rawCode: code, taskId: ticket, billable: true, result: .failure(PassgateError(
                        .carrierBadResponse, .reply(.malformedField("number", detail: "is not a mainland number")))))
                }
                return ProviderAnswer(rawCode: code, taskId: ticket, billable: true, result: .success(PhoneNumberOutcome(phoneNumber: number, carrierTaskId: ticket)))
            case "9":
                return ProviderAnswer(rawCode: code, taskId: ticket, billable: false, result: .failure(PassgateError(
                    .tokenInvalid, .carrier(CarrierAnswer(provider: Self.id, code: code, message: "token used")))))
            default:
                return ProviderAnswer(rawCode: code, taskId: ticket, billable: false, result: .failure(PassgateError(
                    .carrierError, .carrier(CarrierAnswer(provider: Self.id, code: code, message: nil)))))
            }
        }
    }

    func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        throw PassgateError(.appNotEnabled, .local("echo does not verify numbers"), message: "The echo provider cannot verify numbers.")
    }
}
