import PassgateCore

extension ReplyFuzzHost {
    /// What every provider's answer satisfies, whatever the reply: a failure is a `PassgateError`
    /// of the reply layer (`carrier_bad_response`), a carrier answer of this provider (any of its
    /// mapped codes) or a number that could not be decrypted (`msisdn_decrypt_failed`); its
    /// description (what logs show) and message (what callers see) carry neither the token nor a
    /// credential of the app, nor (``checkRedaction``) a run of 7+ digits, which could be a number.
    func genericProblems<Value>(_ answer: ProviderAnswer<Value>, call: FuzzedCall) -> [String] {
        guard case .failure(let error) = answer.result else { return [] }
        var problems: [String] = []
        switch error.reason {
        case .reply where error.code != .carrierBadResponse:
            problems.append("a reply problem with code \(error.code.rawValue)")
        case .carrier(let carrier) where carrier.provider != provider.id:
            problems.append("a carrier answer of provider \(carrier.provider)")
        case .decryption where error.code != .msisdnDecryptFailed:
            problems.append("a decryption problem with code \(error.code.rawValue)")
        case .reply, .carrier, .decryption:
            break
        case .request, .transport, .local:
            problems.append("a \(error.code.rawValue) from another layer: \(error)")
        }
        // A provider's own 7-digit code (MobTech's) is quoted by design; nothing else of 7+ digits may be.
        let longCode = error.carrierAnswer.map(\.code).flatMap { provider.isLongCode($0) ? $0 : nil }
        for (name, text) in [("description", String(describing: error)), ("message", error.message)] {
            if text.contains(call.token) { problems.append("the error \(name) contains the token") }
            if app.secrets.contains(where: { !$0.isEmpty && text.contains($0) }) { problems.append("the error \(name) contains a credential") }
            let run = FuzzText.longestDigitRun(longCode.map { text.replacing($0, with: "<code>") } ?? text)
            if checkRedaction, run >= 7 { problems.append("the error \(name) has a run of \(run) digits (PASSGATE_FUZZ_REDACTION): \(text)") }
        }
        return problems
    }
}
