import PassgateCore

/// What `passgate sign` prints under a Getui request: the sign and what it hashes. The string
/// holds both secrets, so it is shown with them replaced by their lengths.
extension GetuiProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: GetuiApp.self), let body = try? ParsedJSON.parse(call.request.body),
            let timestamp = ProviderReply.string(body["timestamp"])
        else {
            return .cautious(call.request)
        }
        let secrets = "<appSecret: \(app.appSecret.unicodeScalars.count) characters>\(timestamp)<masterSecret: \(app.masterSecret.unicodeScalars.count) characters>"
        return RequestExplanation(details: [
            ("string to sign", secrets),
            ("sign", body["sign"]?.stringValue ?? ""),
            ("signature key", "lowercase hex SHA-256 of the string (no HMAC key)"),
        ])
    }

    /// A `pn` Getui sent for `app` (hex AES-128-CBC under the MasterSecret's first 16 bytes).
    public func decryptNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String? {
        try MSISDN.decryptAESCBC(ciphertext, key: own(app, as: GetuiApp.self).numberKey, iv: Self.numberIV)
    }
}
