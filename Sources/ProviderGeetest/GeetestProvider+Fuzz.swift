import PassgateCore

/// Geetest's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app with a made-up 32-byte
/// app_key (it keys the number's AES-256 too), a flow id without digits, and Geetest's own rules
/// for what a reply may say.
extension GeetestProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let appKey = "fuzz-geetest-app-key-abcdefghijk"
        let fields = try ProviderFields(checking: ["processId": "fuzzprocessidabcdefghijklmnopqrs"], against: providerFields, provider: id)
        return FuzzApp(app: GeetestApp(appId: "fuzzapp", appKey: appKey), secrets: [appKey], providerFields: fields)
    }

    /// A code only from a non-HTML JSON object with a `status`, 2xx or not; the code 1-6 ASCII
    /// digits; a success only with status 200.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let code = answer.rawCode else { return nil }
        guard input.protocolObject(isAnswer: { $0["status"] != nil }) != nil else { return "code \(code) from a reply that is no protocol answer" }
        guard (1...6).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) else { return "code \(code)" }
        if (try? answer.result.get()) != nil, code != "200" { return "success with status \(code)" }
        return nil
    }
}
