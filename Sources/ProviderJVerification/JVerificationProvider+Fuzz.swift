import OpenSSLCrypto
import PassgateCore

/// JVerification's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app with a fresh RSA key
/// (it decrypts the number), and JVerification's own rules for what a reply may say.
extension JVerificationProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let appKey = "fuzz-appkey-jverification", masterSecret = "fuzz-master-secret"
        let app = JVerificationApp(appId: "fuzzapp", appKey: appKey, masterSecret: masterSecret, privateKey: try RSAPrivateKey.generate())
        return FuzzApp(app: app, secrets: [appKey, masterSecret])
    }

    /// A code only from a non-HTML JSON object with a `code`, 2xx or not; the code 1-6 ASCII digits;
    /// the id digits only (up to 20), a number's exact text (a 64-bit id is never rounded); an
    /// echoed `exID` only ours; a risk score only in 0-1000.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        if let score = (try? answer.result.get() as? PhoneNumberOutcome)?.riskScore, !(0...1000).contains(score) { return "score \(score)" }
        guard let code = answer.rawCode else { return nil }
        guard let document = input.protocolObject(isAnswer: { $0["code"] != nil }) else { return "code \(code) from a reply that is no protocol answer" }
        guard (1...6).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) else { return "code \(code)" }
        if let id = answer.taskId {
            guard (1...20).contains(id.utf8.count), id.utf8.allSatisfy({ (48...57).contains($0) }) else { return "id \(id)" }
            if case .number(let text)? = document["id"], text != id { return "id \(text) became \(id)" }
        }
        if case .string(let echo)? = document["exID"], !echo.isEmpty, echo != call.requestId { return "accepted the echo \(echo.debugDescription)" }
        return nil
    }
}
