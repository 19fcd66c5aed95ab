import PassgateCore

/// What `passgate sign` prints under a Umeng request: the API gateway's StringToSign and
/// `X-Ca-Signature`. An `Invalid Signature` refusal quotes the gateway's own StringToSign in its
/// `X-Ca-Error-Message`: compare the two. The request carries no secret itself.
extension UmengProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: UmengApp.self) else { return .cautious(call.request) }
        let headers = call.request.headers
        func value(_ name: String) -> String { headers.first { ASCIICase.equals($0.name, name) }?.value ?? "" }
        let signedNames = value("x-ca-signature-headers").split(separator: ",").map(String.init)
        let signed = signedNames.map { (name: $0, value: value($0)) }
        let stringToSign = UmengRequest.stringToSign(
            method: call.request.method.rawValue, accept: value("Accept"), contentMD5: value("Content-MD5"), contentType: value("Content-Type"),
            date: value("Date"), headers: signed, pathAndQuery: call.request.path)
        return RequestExplanation(details: [
            ("string to sign", stringToSign),
            ("X-Ca-Signature", value("x-ca-signature")),
            ("signature key", "base64 HMAC-SHA256 keyed by the Marketplace AppSecret (\(app.gatewayAppSecret.unicodeScalars.count) characters)"),
        ])
    }
}
