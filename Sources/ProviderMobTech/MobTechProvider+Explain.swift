import OpenSSLCrypto
import PassgateCore

/// What `passgate sign` prints under a MobTech request: the string its `sign` covers (the
/// AppSecret at its end shown by its length) and the sign. A 4119342 answer means the AppSecret
/// is not the app's, or MobTech built another string; the request carries no secret itself.
extension MobTechProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: MobTechApp.self), let body = try? ParsedJSON.parse(call.request.body), case .object(let members) = body
        else { return .cautious(call.request) }
        // The body is the sorted fields and then sign: the same list the sign covers.
        let fields = members.filter { $0.key != "sign" }.compactMap { member in ProviderReply.string(member.value).map { (name: member.key, value: $0) } }
        return RequestExplanation(details: [
            ("string to sign", MobTechRequest.canonical(fields) + " + AppSecret (\(app.appSecret.unicodeScalars.count) characters)"),
            ("sign", ProviderReply.string(body["sign"]) ?? ""),
            ("sign function", "lowercase hex MD5 of the string, the AppSecret appended directly (no '&')"),
        ])
    }

    /// `res` of a MobTech reply (base64 DES-CBC under the AppSecret's first 8 bytes), decrypted to the number.
    public func decryptNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String? {
        let app = try own(app, as: MobTechApp.self)
        guard case .success(let des) = self.des() else { return nil }
        return try MobTechReplyParser.number(in: ciphertext, key: app.desKey, des: des)
    }
}
