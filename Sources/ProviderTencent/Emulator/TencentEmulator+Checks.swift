import PassgateCore

extension TencentEmulator {
    /// A Tencent call (docs/tencent.md): the query's sdkappid and 10-digit random, the body's
    /// fields, the time in seconds, the sig (a reused random is refused like a bad sig), then the
    /// token, spent whatever follows.
    func check(_ call: EmulatorCall) -> Answer {
        var outcome = Answer(call.product)
        let query = call.request.queryFields ?? [:]
        outcome.echo = query["random"] ?? ""
        guard let appId = query["sdkappid"], let random = query["random"], random.utf8.count == 10, random.utf8.allSatisfy({ (48...57).contains($0) }),
            case .object? = call.request.json, let body = call.request.json,
            case .string(let sig)? = body["sig"], case .string(let time)? = body["time"], case .string(let token)? = body["token"], !token.isEmpty
        else { return outcome.answer(SandboxCode.badRequest, "request malformed: sdkappid and a 10-digit random in the query, sig, time and token in the body") }
        if let carrier = body["carrier"] {
            guard case .string(let name) = carrier, TencentRequest.carriers.contains(name) else { return outcome.answer(SandboxCode.badRequest, "carrier malformed") }
        }
        guard let app = call.app(appId, of: Tencent.providerID), let credentials = app.credentials as? Credentials else {
            return outcome.answer(SandboxCode.unknownApp, "sdkappid unknown")
        }
        outcome.appId = app.appId
        guard let seconds = Int64(time), abs(seconds * 1000 - call.now) <= Int64(call.maxClockSkewSeconds) * 1000 else {
            return outcome.answer(SandboxCode.badTime, "time out of range (seconds, within \(call.maxClockSkewSeconds)s)")
        }
        guard let expected = try? TencentRequest.sign(appKey: credentials.appKey, random: random, time: time),
            EmulatorChecks.hexMatches(sig, expected: expected.uppercased())
        else { return outcome.answer(SandboxCode.badSig, "sig verification failed") }
        guard call.ledger.noteMessageID("tencent:random:\(appId):\(random)", now: call.now) else {
            return outcome.answer(SandboxCode.badSig, "random used already")
        }
        switch call.spend(token, for: app) {
        case .success(let record):
            outcome.phoneNumber = record.phoneNumber
            outcome.msisdn = record.phoneNumber
            return outcome.answer("0", "OK")
        case .failure(.unknown), .failure(.otherApp), .failure(.otherProduct): return outcome.answer(SandboxCode.badToken, "token invalid or used")
        case .failure(.disabled), .failure(.noQuota): return outcome.answer(SandboxCode.noService, "service not enabled or used up")
        }
    }
}
