import OpenSSLCrypto
import PassgateCore

extension ShanyanEmulator {
    /// Shanyan publishes no code table, so the sandbox's refusals use codes of its own, in a range
    /// no success shares: Passgate maps them as it maps any unpublished code (`carrier_error`).
    enum ShanyanCode {
        static let success = "200000"
        static let badRequest = "400001"
        static let unknownApp = "400002"
        static let badSign = "400003"
        static let ipNotAllowed = "400004"
        static let tokenInvalid = "400101"
        static let tokenOtherApp = "400102"
        static let tokenWrongProduct = "400103"
        static let noBalance = "400201"
        static let disabled = "400202"
        static let encryptFailed = "500001"
    }

    /// A Shanyan call (docs/shanyan.md), checked in this order: method, form body, fields, app,
    /// client IP, sign (hex HMAC-SHA256 under the appKey, either letter case); then the token is
    /// spent and its app, kind, the app's capability and the quota decide.
    func check(_ call: EmulatorCall) -> Answer {
        let (request, endpoint) = (call.request, call.product)
        var outcome = Answer(endpoint)
        guard request.method == "POST" else { return outcome.answer(ShanyanCode.badRequest, "method must be POST") }
        guard let type = request.contentType, type.lowercased().hasPrefix("application/x-www-form-urlencoded"),
            let fields = request.formFields
        else { return outcome.answer(ShanyanCode.badRequest, "body must be application/x-www-form-urlencoded") }
        outcome.echo = fields["outId"] ?? ""
        let required = endpoint == .login ? ["appId", "token", "sign"] : ["appId", "token", "mobile", "sign"]
        if let missing = required.first(where: { (fields[$0] ?? "").isEmpty }) { return outcome.answer(ShanyanCode.badRequest, "\(missing) is required") }
        guard let app = call.app(fields["appId"]!, of: Shanyan.providerID), let credentials = app.credentials as? Credentials else {
            return outcome.answer(ShanyanCode.unknownApp, "appId does not exist")
        }
        outcome.appId = app.appId
        let appKey = credentials.appKey
        guard call.isClientAllowed else { return outcome.answer(ShanyanCode.ipNotAllowed, "IP not in the whitelist") }
        let signed = fields.filter { $0.key != "sign" }.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { $0.key + $0.value }.joined()
        guard let mac = try? Digest.hmacSHA256(key: Array(appKey.utf8), data: Array(signed.utf8)),
            EmulatorChecks.hexMatches(fields["sign"]!, expected: Hex.uppercase(mac))
        else { return outcome.answer(ShanyanCode.badSign, "sign check failed") }

        // From here on the token is spent whatever follows.
        let record: TokenRecord
        switch call.spend(fields["token"]!, for: app) {
        case .success(let spent): record = spent
        case .failure(.unknown): return outcome.answer(ShanyanCode.tokenInvalid, "token invalid or expired")
        case .failure(.otherApp): return outcome.answer(ShanyanCode.tokenOtherApp, "token does not belong to this appId")
        case .failure(.otherProduct): return outcome.answer(ShanyanCode.tokenWrongProduct, "token is for the other product")
        case .failure(.disabled): return outcome.answer(ShanyanCode.disabled, "product not enabled")
        case .failure(.noQuota): return outcome.answer(ShanyanCode.noBalance, "balance insufficient")
        }
        outcome.phoneNumber = record.phoneNumber
        outcome.taskId = "SY" + String(MessageID.make().prefix(24))
        if endpoint == .verify {
            outcome.verdict = fields["mobile"] == record.phoneNumber ? "1" : "0"
            return outcome.answer(ShanyanCode.success, "success")
        }
        if fields["encryptType"] == "1" {
            guard let key = credentials.encryptionKey, let cipher = try? key.encrypt(Array(record.phoneNumber.utf8)) else {
                return outcome.answer(ShanyanCode.encryptFailed, "no RSA key registered")
            }
            outcome.msisdn = Hex.lowercase(cipher)
        } else {
            guard let derived = try? ShanyanProvider.aesKeyAndIV(appKey: appKey),
                let cipher = try? AESCBC.encrypt(Array(record.phoneNumber.utf8), key: derived.key, iv: derived.iv)
            else { return outcome.answer(ShanyanCode.encryptFailed, "encryption failed") }
            outcome.msisdn = Hex.lowercase(cipher)
        }
        return outcome.answer(ShanyanCode.success, "success")
    }
}
