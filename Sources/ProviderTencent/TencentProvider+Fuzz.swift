import PassgateCore

/// Tencent Cloud's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app with a made-up
/// AppKey, and Tencent's own rules for what a reply may say.
extension TencentProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let appKey = "fuzz-tencent-app-key"
        return FuzzApp(app: TencentApp(appId: "1400000000", appKey: appKey), secrets: [appKey])
    }

    /// A code only from a non-HTML JSON object with a `result`; the code up to 6 digits (a `-`
    /// before them allowed); a success only with code 0.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let code = answer.rawCode else { return nil }
        guard input.protocolObject(isAnswer: { $0["result"] != nil }) != nil else { return "code \(code) from a reply that is no protocol answer" }
        let digits = code.hasPrefix("-") ? String(code.dropFirst()) : code
        guard (1...6).contains(digits.utf8.count), digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return "code \(code)" }
        if case .success = answer.result, code != "0" { return "a success with code \(code)" }
        return nil
    }
}
