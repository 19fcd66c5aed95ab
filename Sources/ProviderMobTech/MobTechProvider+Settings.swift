import OpenSSLCrypto
import PassgateCore

extension MobTechProvider {
    /// Reads a MobTech app entry: `appSecret` required, at least 8 bytes (its first 8 are the DES
    /// key of the number). MobTech's number is single DES, which OpenSSL 3 keeps in its legacy
    /// provider: when that module cannot be loaded the app is refused here, at load, naming the
    /// app and what to install, rather than at its first call. Every problem is reported with its
    /// key; nil when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let secret = fields.secret("appSecret", purpose: "makes every sign wrong (MobTech answers 4119342) and the number undecryptable")
        if !fields.isPresent("appSecret") {
            fields.report("appSecret", "\(fields.path(of: "appSecret")) is required: the app's AppSecret from the MobTech console, as env:NAME or file:PATH")
        } else if secret?.isEmpty == true {
            fields.report("appSecret", "\(fields.path(of: "appSecret")) is empty")
        } else if let secret, secret.utf8.count < DESCBC.keyLength {
            fields.report(
                "appSecret",
                "\(fields.path(of: "appSecret")) has \(secret.utf8.count) bytes: a MobTech AppSecret has at least 8, the DES key of the number")
        }
        if case .failure(let error) = des() {
            fields.report(
                "provider",
                "app \(fields.appId) (provider mobtech) needs single DES for MobTech's encrypted number, which OpenSSL 3 keeps in its legacy provider: \(error.reason)")
        }
        guard !fields.hasProblems, let secret else { return nil }
        return MobTechApp(appId: fields.appId, appSecret: secret)
    }
}
