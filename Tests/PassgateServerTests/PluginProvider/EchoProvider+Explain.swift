import PassgateCore

/// The echo provider's explain part: what `passgate sign` prints under its request. Its
/// signature covers the token alone, keyed by the secret, which shows only as its length.
extension EchoProvider: RequestExplaining {
    func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = app as? App else { return .cautious(call.request) }
        return RequestExplanation(details: [
            ("signed string", call.token),
            ("sig", "hex(HMAC-SHA256(secret of \(app.secret.unicodeScalars.count) characters, signed string))"),
        ])
    }
}
