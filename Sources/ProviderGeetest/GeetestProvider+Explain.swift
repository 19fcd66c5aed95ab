import PassgateCore

/// What `passgate sign` prints under a Geetest request: its string to sign and `sign`. A 12105,
/// 12109 or 2104 answer means the app_key is not this app_id's (or, for OnePass, the key it signs
/// with is another): the string itself holds only the app_id and the timestamp.
extension GeetestProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: GeetestApp.self), let body = try? ParsedJSON.parse(call.request.body),
            let timestamp = body["timestamp"]?.stringValue
        else {
            return .cautious(call.request)
        }
        return RequestExplanation(details: [
            ("string to sign", GeetestRequest.stringToSign(app: app, timestamp: timestamp)),
            ("sign", body["sign"]?.stringValue ?? ""),
            ("signature key", "lowercase hex HMAC-SHA256 keyed by the app_key (\(app.appKey.unicodeScalars.count) characters)"),
        ])
    }

    /// A `result` Geetest sent encrypted for `app` (hex AES-256-CBC under the app_key); nil when
    /// the app asks for numbers in clear.
    public func decryptNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String? {
        let app = try own(app, as: GeetestApp.self)
        guard app.encryptNumber else { return nil }
        return try MSISDN.decryptAESCBC(ciphertext, key: Array(app.appKey.utf8), iv: Self.numberIV)
    }
}
