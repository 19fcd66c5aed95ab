import PassgateCore

extension GetuiProvider {
    /// Reads a Getui app entry: `appSecret` and `masterSecret` required, the MasterSecret at least
    /// 16 bytes (its first 16 key the number's AES-128). Every problem is reported with its key;
    /// nil when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let appSecret = fields.secret("appSecret", purpose: "makes every sign wrong (Getui answers 60008)")
        let masterSecret = fields.secret("masterSecret", purpose: "makes every sign wrong (Getui answers 60008)")
        for (key, value, what) in [("appSecret", appSecret, "the app's AppSecret"), ("masterSecret", masterSecret, "the app's MasterSecret")] {
            if !fields.isPresent(key) {
                fields.report(key, "\(fields.path(of: key)) is required: \(what) from the Getui console, as env:NAME or file:PATH")
            } else if value?.isEmpty == true {
                fields.report(key, "\(fields.path(of: key)) is empty")
            }
        }
        if let masterSecret, !masterSecret.isEmpty, masterSecret.utf8.count < 16 {
            fields.report(
                "masterSecret",
                "\(fields.path(of: "masterSecret")) is \(masterSecret.utf8.count) bytes; its first 16 are the number's AES-128 key, so it needs at least 16")
        }
        guard !fields.hasProblems, let appSecret, let masterSecret else { return nil }
        return GetuiApp(appId: fields.appId, appSecret: appSecret, masterSecret: masterSecret)
    }
}
