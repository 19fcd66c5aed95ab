import PassgateCore

/// The echo provider's fuzz entry: the reply-fuzz host fuzzes it as it fuzzes the built-in
/// providers (ReplyFuzzHostTests). Echo cannot verify, so only phone-number replies are read.
extension EchoProvider: ReplyFuzzing {
    func fuzzApp() throws -> FuzzApp {
        let secret = "echo-fuzz-secret"
        return FuzzApp(app: App(appId: "echofuzz", secret: secret), secrets: [secret])
    }

    /// A number only from a 2xx JSON object whose `code` is "0", and only a mainland one.
    func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let outcome = try? answer.result.get() as? PhoneNumberOutcome else { return nil }
        guard (200..<300).contains(input.status), let document = try? ParsedJSON.parse(input.body), document["code"]?.stringValue == "0" else {
            return "a number from a reply without code 0"
        }
        return MSISDN.isMainland(outcome.phoneNumber) ? nil : "a number that is not a mainland one"
    }
}
