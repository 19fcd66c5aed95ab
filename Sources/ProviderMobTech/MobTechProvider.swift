import OpenSSLCrypto
import PassgateCore

/// MobTech SecVerify (秒验) as a Passgate provider: `sdkClientFreeLogin` with an MD5 sign over the
/// sorted fields and the AppSecret, the number back in a DES-CBC encrypted answer. The SDK gives
/// the app three values: Mob's token (the request's `token`), the carrier's `opToken` and the
/// `operator` (`providerFields`), and optionally the APK signature's `md5`. No number verification.
public struct MobTechProvider: CarrierProvider {
    /// The single-DES cipher, from OpenSSL's legacy provider; loaded when first asked for (the
    /// settings reader asks, so an app fails at load when the module is missing).
    let des: @Sendable () -> Result<DESCBC, OpenSSLError>

    public init() {
        self.init(des: { DESCBC.shared })
    }

    /// A provider whose DES comes from `des` (tests: a missing legacy module).
    public init(des: @escaping @Sendable () -> Result<DESCBC, OpenSSLError>) {
        self.des = des
    }

    public var id: String { MobTech.providerID }

    public var appKeys: [String] { ["appSecret"] }

    /// `opToken` is the carrier's token, spent with Mob's; `operator` and `md5` describe the
    /// device and app and are the same for every token, so they are not part of the replay key.
    public var providerFields: [ProviderField] {
        [
            ProviderField(name: "opToken", required: true, maxLength: 2048, charset: .printableASCII, singleUse: true),
            ProviderField(name: "operator", required: true, minLength: 4, maxLength: 4, charset: .alphanumeric, singleUse: false),
            ProviderField(name: "md5", required: false, minLength: 32, maxLength: 32, charset: .hexDigits, singleUse: false),
        ]
    }

    public func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let app = try own(app, as: MobTechApp.self)
        let fields = context.providerFields
        guard let opToken = fields["opToken"] else {
            throw .invalidRequest(field: ProviderFields.path("opToken"), "is required by the mobtech provider; pass the value its SDK returned")
        }
        guard let carrier = fields["operator"], MobTechRequest.operators.contains(carrier) else {
            throw .invalidRequest(field: ProviderFields.path("operator"), "must be CMCC, CUCC or CTCC, as the MobTech SDK returned it")
        }
        let des: DESCBC
        switch self.des() {
        case .success(let loaded): des = loaded
        case .failure(let error):
            throw PassgateError(.internalError, .local("single DES is not available"), message: "MobTech's number is single DES: \(error.reason)", underlying: error)
        }
        let request: MobTechRequest
        do {
            request = try MobTechRequest(
                app: app, token: token, opToken: opToken, operator: carrier, md5: fields["md5"], timestamp: context.clock.nowMilliseconds(),
                msgid: context.requestId)
        } catch {
            throw .internalError("cannot sign the MobTech request", underlying: error)
        }
        return PreparedCall(provider: id, operation: .phoneNumber, request: request.providerRequest) { reply in
            do throws(PassgateError) {
                let parsed = try MobTechReplyParser.parse(status: reply.status, contentType: reply.contentType, body: reply.body)
                let entry = MobTech.codes[parsed.code]
                let result = Result { () throws(PassgateError) -> PhoneNumberOutcome in
                    guard entry.error == nil else { throw entry.makeError(providerMessage: parsed.message) }
                    guard let res = parsed.res, !res.isEmpty else { throw ProviderReply.badReply(.missingField("res")) }
                    return PhoneNumberOutcome(phoneNumber: try MobTechReplyParser.number(in: res, key: app.desKey, des: des), carrierTaskId: parsed.seqid)
                }
                // MobTech says nothing about billing in the reply: its success is what it charges.
                return ProviderAnswer(rawCode: parsed.code, taskId: parsed.seqid, billable: entry.error == nil, result: result)
            } catch {
                return .failure(error)
            }
        }
    }

    /// MobTech's server API has no number verification.
    public func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        let app = try own(app, as: MobTechApp.self)
        throw PassgateError(
            .appNotEnabled, .local("mobtech has no number verification"),
            message: "MobTech SecVerify has no number-verification API: app \(app.appId) can only get phone numbers (POST /v1/phone-number).")
    }
}
