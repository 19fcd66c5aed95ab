import PassgateCore

/// MobTech's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app with a made-up AppSecret,
/// the SDK values MobTech needs besides the token, and MobTech's own rules for what a reply may say.
extension MobTechProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let appSecret = "fuzz-mobtech-app-secret"
        let fields = try ProviderFields(checking: ["opToken": "fuzz-op-token-abcdef", "operator": "CMCC"], against: providerFields, provider: id)
        return FuzzApp(app: MobTechApp(appId: "fuzzapp", appSecret: appSecret), secrets: [appSecret], providerFields: fields)
    }

    /// A code only from a non-HTML JSON object with a `status`, 2xx or not; the code 1-6 ASCII
    /// digits, or 7 starting with 4 or 5 (MobTech's own); a seqid without a run of 7+ digits.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        if let seqid = answer.taskId, FuzzText.longestDigitRun(seqid) >= 7 { return "seqid \(seqid) could be a number" }
        guard let code = answer.rawCode else { return nil }
        guard input.protocolObject(isAnswer: { $0["status"] != nil }) != nil else { return "code \(code) from a reply that is no protocol answer" }
        guard code.utf8.allSatisfy({ (48...57).contains($0) }) else { return "code \(code)" }
        return (1...6).contains(code.utf8.count) || isLongCode(code) ? nil : "code \(code)"
    }

    /// MobTech's 7-digit codes (4xxxxxx, 5xxxxxx) start as no mainland number does.
    public func isLongCode(_ code: String) -> Bool {
        code.utf8.count == 7 && code.utf8.allSatisfy({ (48...57).contains($0) }) && (code.hasPrefix("4") || code.hasPrefix("5"))
    }
}
