import OpenSSLCrypto
import PassgateCore

extension GeetestEmulator {
    /// One call to `check_phone` or `check_gateway`, checked in Geetest's order: the body, the
    /// caller's IP, the timestamp (milliseconds, 10 minutes either way), the sign, the flow id
    /// (spent here, even if the token then fails), then the token.
    ///
    /// Neither request names the app: at Geetest the process_id does, as the SDK's flow was
    /// started for one app_id. The sandbox mints no process ids, so it finds the app whose app_key
    /// the sign matches; a sign no app's key matches is the sign error.
    func check(_ call: EmulatorCall) -> Answer {
        let login = call.product == .login
        var outcome = Answer(call.product)
        // OnePass has its own codes for each check; OneLogin answers the nearest documented one.
        let (missing, badTime, badSign, usedFlow, badToken) = login
            ? ("12100", "12005", "12105", "12101", "12200") : ("2000", "2005", "2104", "3105", "3200")
        guard let object = call.request.json?.members else { return outcome.answer(missing, "parameter invalid: not a JSON object") }
        let required = login ? ["process_id", "token", "timestamp", "sign"] : ["process_id", "accesscode", "phone", "timestamp", "sign"]
        for field in required where (object[field]?.stringValue ?? "").isEmpty {
            return outcome.answer(missing, "parameter missing: \(field)")
        }
        let processId = object["process_id"]!.stringValue!, timestamp = object["timestamp"]!.stringValue!
        let token = object[login ? "token" : "accesscode"]!.stringValue!
        guard call.isClientAllowed else { return outcome.answer("12007", "ip not in whitelist") }
        if !login, !MSISDN.isMainland(object["phone"]!.stringValue!) { return outcome.answer("2001", "parameter invalid: phone") }
        guard case .string = object["timestamp"], let sent = Int64(timestamp), timestamp.utf8.allSatisfy({ (48...57).contains($0) }),
            abs(sent - call.now) <= 10 * 60 * 1000
        else { return outcome.answer(badTime, "timestamp invalid: milliseconds as a string, within 10 minutes") }
        let sign = object["sign"]!.stringValue!
        guard let app = call.apps.values.first(where: { app in
            guard app.provider == Geetest.providerID, let credentials = app.credentials as? Credentials else { return false }
            return Self.signMatches(sign, appId: app.appId, appKey: credentials.appKey, timestamp: timestamp)
        }) else { return outcome.answer(badSign, "sign error") }
        outcome.appId = app.appId
        guard call.ledger.noteMessageID("geetest:process:" + processId, now: call.now) else { return outcome.answer(usedFlow, "process_id already used") }

        let record: TokenRecord
        switch call.spend(token, for: app) {
        case .success(let spent): record = spent
        case .failure(.unknown), .failure(.otherApp), .failure(.otherProduct): return outcome.answer(badToken, "token expired or invalid")
        case .failure(.disabled): return outcome.answer("500", "product not enabled for this app_id")
        case .failure(.noQuota): return outcome.answer("12104", "balance exhausted")
        }
        outcome.phoneNumber = record.phoneNumber
        outcome.charge = true
        if login {
            let credentials = app.credentials as? Credentials
            if object["is_phone_encode"] == .bool(true), let key = credentials.map({ Array($0.appKey.utf8) }), key.count == 32,
                let cipher = try? AESCBC.encrypt(Array(record.phoneNumber.utf8), key: key, iv: GeetestProvider.numberIV)
            {
                outcome.msisdn = Hex.lowercase(cipher)
            } else {
                outcome.msisdn = record.phoneNumber
            }
        } else {
            outcome.verdict = object["phone"]!.stringValue! == record.phoneNumber ? "0" : "1"
        }
        return outcome.answer("200", "")
    }

    /// Whether `sign` is the lowercase hex HMAC-SHA256 of `app_id&&timestamp` under `appKey`
    /// (either case accepted, compared in constant time).
    private static func signMatches(_ sign: String, appId: String, appKey: String, timestamp: String) -> Bool {
        let app = GeetestApp(appId: appId, appKey: appKey)
        guard let mac = try? Digest.hmacSHA256(key: Array(appKey.utf8), data: Array(GeetestRequest.stringToSign(app: app, timestamp: timestamp).utf8))
        else { return false }
        return EmulatorChecks.hexMatches(sign, expected: Hex.lowercase(mac).uppercased())
    }
}
