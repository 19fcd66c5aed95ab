import PassgateCore

/// Shanyan's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an app whose numbers come
/// AES-encrypted under its appKey, and Shanyan's own rules for what a reply may say.
extension ShanyanProvider: ReplyFuzzing {
    public func fuzzApp() throws -> FuzzApp {
        let appKey = "fuzz-appkey-shanyan"
        return FuzzApp(app: ShanyanApp(appId: "fuzzapp", appKey: appKey), secrets: [appKey])
    }

    /// A code only from a non-HTML JSON object with a `code`, 2xx or not; the code 1-6 ASCII
    /// digits; billed only when `chargeStatus` is 1; a `tradeNo` only of 1-64 letters, digits,
    /// `-` and `_`.
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let code = answer.rawCode else { return nil }
        guard let document = input.protocolObject(isAnswer: { $0["code"] != nil }) else { return "code \(code) from a reply that is no protocol answer" }
        guard (1...6).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) else { return "code \(code)" }
        if answer.billable {
            let charge = document["chargeStatus"]
            let isOne = charge == .string("1") || { if case .number(let text)? = charge { Double(text) == 1 } else { false } }()
            if !isOne { return "billed from chargeStatus \(String(describing: charge))" }
        }
        if let tradeNo = answer.taskId {
            let allowed = tradeNo.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x2D || byte == 0x5F
            }
            if !(1...64).contains(tradeNo.utf8.count) || !allowed { return "tradeNo \(tradeNo)" }
        }
        return nil
    }
}
