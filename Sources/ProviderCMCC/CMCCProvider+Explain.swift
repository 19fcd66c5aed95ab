import OpenSSLCrypto
import PassgateCore

/// What `passgate sign` prints under a CMCC request: the string its `sign` covers (the MD5 form's
/// secret as its length and ends), or for number verification how `phoneNum` was made. 103101
/// and 302 are answered for a sign CMCC computed differently; these are the strings to compare.
extension CMCCProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: CMCCApp.self), let json = try? ParsedJSON.parse(call.request.body) else { return .cautious(call.request) }
        switch call.operation {
        case .phoneNumber:
            // The same fields through the same type: its signing input is the one the request was signed with.
            guard let msgid = json["msgid"]?.stringValue, let systemtime = json["systemtime"]?.stringValue,
                let request = try? CMCCLoginRequest(
                    appId: app.appId, token: call.token, signing: app.login, msgid: msgid, systemtime: systemtime,
                    strictCheck: json["strictcheck"]?.stringValue == "1")
            else { return .cautious(call.request) }
            return RequestExplanation(details: [
                ("sign mode", app.signMode == .md5 ? "md5: MD5(appid + version + msgid + systemtime + strictcheck + token + secret)" : "rsa: SHA256withRSA(appid + token)"),
                ("signed string", request.redactedSigningInput),
                ("sign", json["sign"]?.stringValue ?? ""),
            ])
        case .verify:
            let header = json["header"], body = json["body"]
            guard let msgId = header?["msgId"]?.stringValue, let timestamp = header?["timestamp"]?.stringValue,
                let phoneNum = body?["phoneNum"]?.stringValue, let appKey = app.appKey
            else { return .cautious(call.request) }
            return RequestExplanation(details: [
                ("key type", body?["keyType"]?.stringValue == "1" ? "1: phoneNum RSA-encrypted to CMCC's key, sign MD5withRSA" : "0: phoneNum SHA-256, sign HMAC-SHA256 keyed by the appKey"),
                ("phoneNum input", "\(call.phoneNumber ?? "")<appKey: \(appKey.unicodeScalars.count) chars>\(timestamp)"),
                ("phoneNum", phoneNum),
                ("signed string", CMCCVerifyRequest.signingInput(appId: app.appId, msgId: msgId, phoneNum: phoneNum, timestamp: timestamp, token: call.token)),
                ("sign", body?["sign"]?.stringValue ?? ""),
            ])
        }
    }

    /// RSA-mode apps get their numbers encrypted to their key; MD5-mode apps in clear.
    public func decryptNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String? {
        guard let key = try own(app, as: CMCCApp.self).decryptionKey else { return nil }
        return try MSISDN.decrypt(ciphertext, with: key)
    }
}
