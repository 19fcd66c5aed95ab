import PassgateCore

/// What `passgate sign` prints under an Alibaba Cloud request: its string to sign and `Signature`.
/// A SignatureDoesNotMatch answer means the secret is not the AccessKey ID's, or the string
/// differs from the one Alibaba Cloud built; the request carries no secret itself.
extension AliyunProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: AliyunApp.self), let fields = PercentEncoding.formFields(call.request.body) else {
            return .cautious(call.request)
        }
        // The body is the sorted parameters and then Signature: the same list the signature covers.
        let parameters = fields.filter { $0.name != "Signature" }
        return RequestExplanation(details: [
            ("string to sign", AliyunRequest.stringToSign(method: call.request.method.rawValue, parameters)),
            ("Signature", fields.last { $0.name == "Signature" }?.value ?? ""),
            ("signature key", "base64 HMAC-SHA1 keyed by the AccessKey secret (\(app.accessKeySecret.unicodeScalars.count) characters) + \"&\""),
        ])
    }
}
