import PassgateCore

/// Getui's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app with made-up secrets, a
/// device id without digits, and Getui's own rules for what a reply may say.
extension GetuiProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let appSecret = "fuzz-getui-app-secret", masterSecret = "fuzz-getui-master-secret"
        let fields = try ProviderFields(checking: ["gyuid": "fuzzgyuidabcdef"], against: providerFields, provider: id)
        return FuzzApp(app: GetuiApp(appId: "fuzzapp", appSecret: appSecret, masterSecret: masterSecret), secrets: [appSecret, masterSecret], providerFields: fields)
    }

    /// A code only from a non-HTML JSON object with an `errno`, 2xx or not; the code 1-6 ASCII
    /// digits; a success only with 20000.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let code = answer.rawCode else { return nil }
        guard input.protocolObject(isAnswer: { $0["errno"] != nil }) != nil else { return "code \(code) from a reply that is no protocol answer" }
        guard (1...6).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) else { return "code \(code)" }
        if (try? answer.result.get()) != nil, code != "20000" { return "success with code \(code)" }
        return nil
    }
}
