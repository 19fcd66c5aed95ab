import OpenSSLCrypto
import PassgateCore

/// What `passgate sign` prints under a JVerification request. Its only credential is the Basic
/// `Authorization` header (`appKey:masterSecret`): a 9010/9011 answer means that header is not the
/// app's appKey and Master Secret, so the explanation says who it authenticates as, never the secret.
extension JVerificationProvider: RequestExplaining {
    public func explain(_ call: ExplainedCall, app: any ProviderApp) -> RequestExplanation {
        guard let app = try? own(app, as: JVerificationApp.self) else { return .cautious(call.request) }
        return RequestExplanation(
            details: [
                ("authenticated as", "Basic base64(appKey \(app.appKey) + \":\" + Master Secret of \(app.masterSecret.unicodeScalars.count) characters)"),
                ("api version", call.operation == .verify ? "v1 verify" : "v\(app.apiVersion) login"),
            ],
            secretHeaders: ["Authorization"])
    }

    public func decryptNumber(_ ciphertext: String, app: any ProviderApp) throws(PassgateError) -> String? {
        guard let key = try own(app, as: JVerificationApp.self).privateKey else { return nil }
        return try MSISDN.decrypt(ciphertext, with: key)
    }
}
