import PassgateCore

/// NetEase Yidun's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app with a made-up
/// product key, and Yidun's own rules for what a reply may say.
extension YidunProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let secretId = "fuzz-secret-id", secretKey = "fuzz-secret-key"
        // The carrier's token is a providerField: letters only, so a digit run in an error comes from the reply.
        let fields = try ProviderFields(checking: ["accessToken": "fuzzcarriertokenabcdef"], against: providerFields, provider: id)
        return FuzzApp(
            app: YidunApp(appId: "fuzzapp", businessId: "fuzz-business", secretId: secretId, secretKey: secretKey), secrets: [secretKey],
            providerFields: fields)
    }

    /// A code only from a non-HTML JSON object with a `code`, 2xx or not; the code 1-6 digits; a
    /// number only from a 200 answer.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let code = answer.rawCode else { return nil }
        guard input.protocolObject(isAnswer: { $0["code"] != nil }) != nil else { return "code \(code) from a reply that is no protocol answer" }
        guard (1...6).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) else { return "code \(code)" }
        if case .success = answer.result, code != "200" { return "a success with code \(code)" }
        return nil
    }
}
