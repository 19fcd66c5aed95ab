import PassgateCore

/// What `passgate sign` prints under a Tencent Cloud request: the string the SHA-256 covers, with
/// the AppKey masked (it sits inside the string), and the `sig`. A refusal naming the sig means
/// the AppKey is not the sdkappid's, or this server's clock is off.
extension TencentProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: TencentApp.self), let body = try? ParsedJSON.parse(call.request.body),
            let time = ProviderReply.string(body["time"]), let sig = ProviderReply.string(body["sig"])
        else { return .cautious(call.request) }
        let random = call.request.path.split(separator: "&").last { $0.hasPrefix("random=") }.map { String($0.dropFirst(7)) } ?? ""
        let masked = "<AppKey of \(app.appKey.unicodeScalars.count) characters>"
        return RequestExplanation(details: [
            ("string to sign", TencentRequest.stringToSign(appKey: masked, random: random, time: time)),
            ("sig", sig),
            ("signature", "lowercase hex SHA-256 of the string (a plain digest, not an HMAC); time in seconds"),
        ])
    }
}
