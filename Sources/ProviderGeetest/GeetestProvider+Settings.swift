import PassgateCore

extension GeetestProvider {
    /// Reads a Geetest app entry: `appKey` (the console's app_key) required, `encryptNumber`
    /// (`true`, the default, or `false`). With encryption on the key must be 32 bytes, as it keys
    /// AES-256 itself. Every problem is reported with its key; nil when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let appKey = fields.secret("appKey", purpose: "makes every sign wrong (Geetest answers 12105)")
        let encrypt = fields.choice("encryptNumber", ["true", "false"]).map { $0 == "true" } ?? true
        if !fields.isPresent("appKey") {
            fields.report("appKey", "\(fields.path(of: "appKey")) is required: the app_key of this app_id in the Geetest console, as env:NAME or file:PATH")
        } else if let appKey, appKey.isEmpty {
            fields.report("appKey", "\(fields.path(of: "appKey")) is empty")
        } else if let appKey, encrypt, appKey.utf8.count != 32 {
            fields.report(
                "appKey",
                "\(fields.path(of: "appKey")) is \(appKey.utf8.count) bytes; Geetest's app_key is 32 and keys the number's AES-256 encryption (encryptNumber: true)")
        }
        guard !fields.hasProblems, let appKey else { return nil }
        return GeetestApp(appId: fields.appId, appKey: appKey, encryptNumber: encrypt)
    }
}
