import PassgateCore

/// What `passgate sign` prints under a NetEase Yidun request: the string the MD5 covers (without
/// the secret key at its end) and `signature`. A 405 answer means the secret key is not the
/// secretId's, or the string differs from the one Yidun built; the request carries no secret.
extension YidunProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: YidunApp.self), let fields = PercentEncoding.formFields(call.request.body) else {
            return .cautious(call.request)
        }
        let signed = YidunRequest.sorted(fields.filter { $0.name != "signature" })
        return RequestExplanation(details: [
            ("string to sign", YidunRequest.stringToSign(signed) + "<secretKey>"),
            ("signature", fields.last { $0.name == "signature" }?.value ?? ""),
            ("signature key", "lowercase hex MD5, the secretKey (\(app.secretKey.unicodeScalars.count) characters) appended"),
        ])
    }
}
