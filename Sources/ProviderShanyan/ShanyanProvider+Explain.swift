import PassgateCore

/// What `passgate sign` prints under a Shanyan request: the string its `sign` covers (every other
/// field's name and value, sorted by name) and the sign, HMAC-SHA256 keyed by the appKey.
extension ShanyanProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: ShanyanApp.self), let fields = PercentEncoding.formFields(call.request.body) else {
            return .cautious(call.request)
        }
        let signed = fields.filter { $0.name != "sign" }
        return RequestExplanation(details: [
            ("signed string", signed.map { $0.name + $0.value }.joined()),
            ("sign", fields.last { $0.name == "sign" }?.value ?? ""),
            ("sign key", "HMAC-SHA256 keyed by the appKey (\(app.appKey.unicodeScalars.count) characters), \(app.signCase.rawValue)-case hex"),
        ])
    }

    /// RSA to the app's key when it has one, else AES-128-CBC under the appKey's MD5 (docs/shanyan.md).
    public func decryptNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String? {
        try Self.decrypt(ciphertext, app: try own(app, as: ShanyanApp.self))
    }
}
