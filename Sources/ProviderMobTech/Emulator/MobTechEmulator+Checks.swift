import Foundation
import OpenSSLCrypto
import PassgateCore

extension MobTechEmulator {
    /// A MobTech call, checked as MobTech does: the body's fields, the app by its appkey, the
    /// millisecond timestamp, the sign, the operator; then Mob's token is spent and the opToken
    /// must be its companion. In the sandbox the carrier's opToken of a minted token is the token
    /// itself (the SDK hands the app both; a sandbox mints one), so another opToken is 4119311.
    func check(_ call: EmulatorCall) -> Answer {
        var outcome = Answer()
        // Groups of four: a seqid never has a run of digits long enough to pass for a number.
        let hex = Array(MessageID.make())
        outcome.taskId = stride(from: 0, to: hex.count, by: 4).map { String(hex[$0..<min($0 + 4, hex.count)]) }.joined(separator: "-")
        guard let object = call.request.json?.members else { return outcome.answer("4119342", "sign error: the body is not a JSON object") }
        let strings = object.compactMapValues { value -> String? in
            if case .string(let text) = value { return text }
            if case .number(let text) = value { return text }
            return nil
        }
        for name in ["appkey", "token", "opToken", "operator", "timestamp", "sign"] where (strings[name] ?? "").isEmpty {
            return outcome.answer(name == "token" || name == "opToken" ? "4119310" : "4119342", "\(name) is missing")
        }
        guard let (app, credentials) = call.firstApp(of: MobTech.providerID, Credentials.self, where: { $0.appkey == strings["appkey"] }) else {
            return outcome.answer("4119331", "AppSecret error: no such appkey")
        }
        outcome.appId = app.appId
        guard let sent = object["timestamp"]?.integer, abs(Int64(sent) - call.now) <= Int64(call.maxClockSkewSeconds) * 1000 else {
            return outcome.answer("4119343", "timestamp error: a number of milliseconds within \(call.maxClockSkewSeconds) s of now")
        }
        let signed = strings.filter { $0.key != "sign" }.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { (name: $0.key, value: $0.value) }
        guard let digest = try? Digest.md5(Array((MobTechRequest.canonical(signed) + credentials.appSecret).utf8)),
            constantTimeEquals(Array(strings["sign"]!.utf8), Array(Hex.lowercase(digest).utf8))
        else { return outcome.answer("4119342", "sign error") }
        guard MobTechRequest.operators.contains(strings["operator"]!) else { return outcome.answer("5119501", "unknown operator") }

        // MobTech has the token now: a valid one is spent whatever follows.
        let token = strings["token"]!
        let record: TokenRecord
        switch call.spend(token, for: app) {
        case .success(let spent): record = spent
        case .failure(.unknown): return outcome.answer("4119310", "token not found")
        case .failure(.otherApp), .failure(.otherProduct): return outcome.answer("4119311", "token illegal")
        case .failure(.disabled): return outcome.answer("4119521", "package name not configured")
        case .failure(.noQuota): return outcome.answer("5119341", "balance exhausted")
        }
        guard strings["opToken"] == token else { return outcome.answer("4119311", "token illegal: the opToken does not belong to the token") }
        outcome.phoneNumber = record.phoneNumber
        var answer = JSONObjectWriter()
        answer.add("isValid", 1)
        answer.add("phone", record.phoneNumber)
        answer.add("valid", true)
        guard case .success(let des) = DESCBC.shared,
            let ciphertext = try? des.encrypt(answer.finish(), key: Array(credentials.appSecret.utf8.prefix(8)), iv: Array("00000000".utf8))
        else { return outcome.answer("5119104", "decrypt failed") }
        outcome.msisdn = Data(ciphertext).base64EncodedString()
        return outcome.answer("200", "success")
    }
}
