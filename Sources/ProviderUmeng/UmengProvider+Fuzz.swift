import PassgateCore

/// Umeng's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app with made-up Marketplace
/// credentials, and Umeng's own rules for what a reply may say.
extension UmengProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let key = "fuzz-gateway-app-key", secret = "fuzz-gateway-app-secret"
        return FuzzApp(app: UmengApp(appId: "fuzzapp", gatewayAppKey: key, gatewayAppSecret: secret), secrets: [secret])
    }

    /// A code only from a non-HTML JSON object with a `code` and a `success` (the fuzz input has no
    /// headers, so no gateway refusal); the code 1-6 ASCII digits; billed only with `success` true.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let code = answer.rawCode else { return nil }
        guard let document = input.protocolObject(isAnswer: { $0["code"] != nil && $0["success"] != nil }) else {
            return "code \(code) from a reply that is no protocol answer"
        }
        guard (1...6).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) else { return "code \(code)" }
        if answer.billable, document["success"] != .bool(true), document["success"] != .string("true") { return "billed without success true" }
        return nil
    }
}
