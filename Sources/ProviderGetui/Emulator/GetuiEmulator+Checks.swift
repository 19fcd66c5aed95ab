import OpenSSLCrypto
import PassgateCore

extension GetuiEmulator {
    /// One `gy_get_pn` call, checked in this order: the body and its fields (40032), the app
    /// (40004), the caller's IP (40031), the timestamp (milliseconds within the sandbox's skew,
    /// 40032), the sign (60008), then the token, spent whatever follows.
    func check(_ call: EmulatorCall) -> Answer {
        var outcome = Answer(call.product)
        guard let object = call.request.json?.members else { return outcome.answer("40032", "parameter invalid: not a JSON object") }
        for field in ["appId", "gyuid", "token", "sign"] where (object[field]?.stringValue ?? "").isEmpty {
            return outcome.answer("40032", "parameter invalid: \(field)")
        }
        guard let app = call.app(object["appId"]!.stringValue!, of: Getui.providerID), let credentials = app.credentials as? Credentials else {
            return outcome.answer("40004", "app not found")
        }
        outcome.appId = app.appId
        guard call.isClientAllowed else { return outcome.answer("40031", "ip restricted") }
        guard let timestamp = object["timestamp"]?.integer.map(Int64.init) ?? object["timestamp"]?.stringValue.flatMap({ Int64($0) }),
            abs(timestamp - call.now) <= Int64(call.maxClockSkewSeconds) * 1000
        else { return outcome.answer("40032", "timestamp invalid: milliseconds, close to now") }
        let expected = GetuiApp(appId: app.appId, appSecret: credentials.appSecret, masterSecret: credentials.masterSecret)
        guard let sign = try? GetuiRequest.sign(app: expected, timestamp: timestamp),
            EmulatorChecks.hexMatches(object["sign"]!.stringValue!, expected: sign.uppercased())
        else { return outcome.answer("60008", "sign error") }

        let record: TokenRecord
        switch call.spend(object["token"]!.stringValue!, for: app) {
        case .success(let spent): record = spent
        case .failure: return outcome.answer(Self.tokenRefusedCode, "token invalid (sandbox: Getui documents no code for this)")
        }
        outcome.phoneNumber = record.phoneNumber
        guard let cipher = try? AESCBC.encrypt(Array(record.phoneNumber.utf8), key: expected.numberKey, iv: GetuiProvider.numberIV) else {
            return outcome.answer("40032", "master secret shorter than 16 bytes")
        }
        outcome.msisdn = Hex.lowercase(cipher)
        return outcome.answer("20000", "success")
    }
}
