import OpenSSLCrypto
import PassgateCore

extension YidunEmulator {
    /// A Yidun call (docs/yidun.md), checked in the order the service is taken to check:
    /// parameters, the product key and business, the millisecond timestamp, the signature and
    /// nonce, then the tokens (Yidun's own and the carrier's `accessToken`, each good once).
    func check(_ call: EmulatorCall) -> Answer {
        let fields = call.request.formFields ?? [:]
        let (product, now) = (call.product, call.now)
        var outcome = Answer(product)
        outcome.echo = fields["nonce"] ?? ""
        let required = ["token", "accessToken", "secretId", "businessId", "version", "timestamp", "nonce", "signature"] + (product == .verify ? ["phone"] : [])
        if let missing = required.first(where: { (fields[$0] ?? "").isEmpty }) { return outcome.answer("400", "\(missing) is missing") }
        guard fields["version"] == YidunRequest.version, fields["nonce"]!.utf8.count == 32, fields["accessToken"]!.utf8.count <= 2048 else {
            return outcome.answer("400", "version, nonce or accessToken malformed")
        }
        guard let (app, credentials) = call.firstApp(of: Yidun.providerID, Credentials.self, where: { $0.secretId == fields["secretId"] }),
            credentials.businessId == fields["businessId"]
        else { return outcome.answer("401", "business not found or no permission") }
        outcome.appId = app.appId
        guard let sent = Int64(fields["timestamp"]!), abs(sent - now) <= Int64(call.maxClockSkewSeconds) * 1000 else {
            return outcome.answer("405", "timestamp invalid (milliseconds, within \(call.maxClockSkewSeconds)s)")
        }
        let signed = YidunRequest.sorted(fields.filter { $0.key != "signature" }.map { (name: $0.key, value: $0.value) })
        guard let expected = try? YidunRequest.sign(signed, secretKey: credentials.secretKey),
            EmulatorChecks.hexMatches(fields["signature"]!, expected: expected.uppercased())
        else { return outcome.answer("405", "signature invalid") }
        guard call.ledger.noteMessageID("yidun:nonce:" + fields["nonce"]!, now: now) else { return outcome.answer("400", "nonce used already") }

        // The carrier's token is spent with Yidun's: a second use of either is 450.
        let carrierTokenFresh = call.ledger.noteMessageID("yidun:accessToken:" + fields["accessToken"]!, now: now)
        let record: TokenRecord
        switch call.spend(fields["token"]!, for: app) {
        case .success(let spent) where carrierTokenFresh: record = spent
        case .success: return outcome.answer("450", "accessToken used already")
        case .failure(.unknown), .failure(.otherApp), .failure(.otherProduct): return outcome.answer("450", "token wrong or used")
        case .failure(.disabled): return outcome.answer("401", "no permission for this business")
        case .failure(.noQuota): return outcome.answer("401", "no permission: balance used up")
        }
        outcome.phoneNumber = record.phoneNumber
        if product == .verify {
            outcome.verdict = fields["phone"] == record.phoneNumber ? "1" : "2"
        } else {
            outcome.msisdn = record.phoneNumber
        }
        return outcome.answer("200", "ok")
    }
}
