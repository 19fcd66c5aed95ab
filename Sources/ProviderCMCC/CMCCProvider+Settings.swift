import PassgateCore

extension CMCCProvider {
    /// Reads a CMCC app entry: `signMode` (md5 | rsa), `secret` (required for md5: the APPSecret,
    /// or the legacy appKey), `appKey` (optional: number verification's HMAC key), `privateKey`
    /// (required for rsa). Every problem is reported with its key; nil when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        if !fields.appId.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }) {
            fields.report("appId", "\(fields.path(of: "appId")) \(fields.appId) must be letters and digits only, as the CMCC console shows it (e.g. 300011111111)")
        }
        let signMode = fields.choice("signMode", CMCCApp.SignMode.allCases.map(\.rawValue)).flatMap(CMCCApp.SignMode.init(rawValue:))
        if !fields.isPresent("signMode") {
            fields.report("signMode", "\(fields.path(of: "signMode")) is required: md5 (sign with the APPSecret) or rsa (sign with a private key)")
        }
        let secret = fields.secret("secret", purpose: "makes every MD5 signature wrong (CMCC answers 103101)")
        let appKey = fields.secret("appKey", purpose: "makes every number-verification signature wrong (CMCC answers 302)")
        let privateKey = fields.privateKey("privateKey")
        if signMode == .md5, !fields.isPresent("secret") {
            fields.report("secret", "\(fields.path(of: "secret")) is required for signMode md5: the app's APPSecret (or legacy appKey) as env:NAME or file:PATH")
        }
        if signMode == .rsa, !fields.isPresent("privateKey") {
            fields.report(
                "privateKey",
                "\(fields.path(of: "privateKey")) is required for signMode rsa: the app's RSA private key (PEM or base64 DER) as file:PATH or env:NAME"
                    + (fields.sandboxEnabled ? ", or sandbox:NAME for a generated sandbox key" : "")
            )
        }
        guard let signMode, !fields.hasProblems else { return nil }
        do {
            return try CMCCApp(appId: fields.appId, signMode: signMode, secret: secret, appKey: appKey, privateKey: privateKey)
        } catch {
            // Only reached when a credential did not resolve without a report of its own: an app
            // that cannot sign is never loaded silently.
            fields.report("signMode", "\(fields.path(of: "signMode")): \(error.problem)")
            return nil
        }
    }
}
