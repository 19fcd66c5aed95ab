import PassgateCore

/// The sandbox's own endpoints' JSON, written with the one JSON writer (`JSONObjectWriter`); carrier
/// replies use `JSONStringTree`, whose field order matches the carrier's.
enum JSONWriter {
    /// A flat object of strings, keys sorted.
    static func object(_ fields: [String: String]) -> [UInt8] {
        var object = JSONObjectWriter(capacity: 64)
        for key in fields.keys.sorted() { object.add(key, fields[key]) }
        return object.finish()
    }

    /// `{"code": count, …}`, keys sorted.
    static func counts(_ counts: [String: Int]) -> JSONObjectWriter {
        var object = JSONObjectWriter(capacity: 64)
        for key in counts.keys.sorted() { object.add(key, counts[key] ?? 0) }
        return object
    }

    /// `GET /sandbox/stats`, keys sorted.
    static func stats(_ stats: SandboxStats) -> [UInt8] {
        var object = JSONObjectWriter()
        object.add("answersDelayedNow", stats.answersDelayedNow)
        object.add("faultsApplied", object: counts(stats.faultsApplied))
        object.add("loginCalls", stats.loginCalls)
        object.add("mostAnswersDelayedAtOnce", stats.mostAnswersDelayedAtOnce)
        object.add("loginResultCodes", object: counts(stats.loginResultCodes))
        object.add("tokensConsumed", stats.tokensConsumed)
        object.add("tokensMinted", stats.tokensMinted)
        object.add("verifyCalls", stats.verifyCalls)
        object.add("verifyResultCodes", object: counts(stats.verifyResultCodes))
        return object.finish()
    }

    /// `POST /sandbox/tokens`: one token, or a batch in bench mode.
    static func minted(_ tokens: [String], batch: Bool, expiresInSeconds: Int) -> [UInt8] {
        var object = JSONObjectWriter()
        object.add("expiresInSeconds", expiresInSeconds)
        if batch {
            var array: [UInt8] = [UInt8(ascii: "[")]
            for (index, token) in tokens.enumerated() {
                if index > 0 { array.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(token, to: &array)
            }
            array.append(UInt8(ascii: "]"))
            object.add("tokens", json: array)
        } else {
            object.add("token", tokens.first)
        }
        return object.finish()
    }
}
