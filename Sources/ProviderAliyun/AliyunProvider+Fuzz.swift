import PassgateCore

/// Alibaba Cloud's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app with a made-up
/// AccessKey pair, and Alibaba Cloud's own rules for what a reply may say.
extension AliyunProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let accessKeyId = "fuzz-access-key-id", accessKeySecret = "fuzz-access-key-secret"
        return FuzzApp(app: AliyunApp(appId: "fuzzapp", accessKeyId: accessKeyId, accessKeySecret: accessKeySecret), secrets: [accessKeySecret])
    }

    /// A code only from a non-HTML JSON object with a `Code`, 2xx or not (gateway refusals are 4xx
    /// answers); the code 1-64 letters, digits, `.`, `_`, `-` with no run of 7+ digits.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let code = answer.rawCode else { return nil }
        guard input.protocolObject(isAnswer: { $0["Code"] != nil }) != nil else { return "code \(code) from a reply that is no protocol answer" }
        guard (1...64).contains(code.utf8.count) else { return "code length \(code.utf8.count)" }
        guard FuzzText.longestDigitRun(code) < 7 else { return "code \(code) could be a number" }
        let allowed = code.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        return allowed ? nil : "code \(code)"
    }
}
