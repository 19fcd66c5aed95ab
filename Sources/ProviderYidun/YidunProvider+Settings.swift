import PassgateCore

extension YidunProvider {
    /// Reads a NetEase Yidun app entry: `businessId`, `secretId` and `secretKey` (the secret) all
    /// required. Every problem is reported with its key; nil when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let businessId = fields.secret("businessId", purpose: "makes every call fail (Yidun answers 401)")
        let secretId = fields.secret("secretId", purpose: "makes every call fail (Yidun answers 401)")
        let secretKey = fields.secret("secretKey", purpose: "makes every signature wrong (Yidun answers 405)")
        let keys = [
            ("businessId", businessId, "the one-click login business's id from the Yidun console"),
            ("secretId", secretId, "the product key's secretId from the Yidun console"),
            ("secretKey", secretKey, "the product key's secretKey, as env:NAME or file:PATH"),
        ]
        for (key, value, what) in keys {
            if !fields.isPresent(key) {
                fields.report(key, "\(fields.path(of: key)) is required: \(what)")
            } else if value?.isEmpty == true {
                fields.report(key, "\(fields.path(of: key)) is empty")
            } else if let value, value.utf8.count > 128 || !value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
                fields.report(key, "\(fields.path(of: key)) must be at most 128 printable ASCII characters without spaces")
            }
        }
        guard !fields.hasProblems, let businessId, let secretId, let secretKey else { return nil }
        return YidunApp(appId: fields.appId, businessId: businessId, secretId: secretId, secretKey: secretKey)
    }
}
