import PassgateCore

extension UmengProvider {
    /// Reads a Umeng app entry: `gatewayAppKey` and `gatewayAppSecret` (the Alibaba Cloud
    /// Marketplace AppKey and AppSecret) required. Every problem is reported with its key; nil
    /// when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let key = fields.secret("gatewayAppKey", purpose: "makes every call fail at the API gateway (Invalid AppKey)")
        let secret = fields.secret("gatewayAppSecret", purpose: "makes every signature wrong (Invalid Signature)")
        for (name, value, what) in [
            ("gatewayAppKey", key, "the Alibaba Cloud Marketplace AppKey of the U-Verify purchase"),
            ("gatewayAppSecret", secret, "its AppSecret, as env:NAME or file:PATH"),
        ] {
            if !fields.isPresent(name) {
                fields.report(name, "\(fields.path(of: name)) is required: \(what)")
            } else if value?.isEmpty == true {
                fields.report(name, "\(fields.path(of: name)) is empty")
            }
        }
        if let key, !key.isEmpty, !key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            fields.report("gatewayAppKey", "\(fields.path(of: "gatewayAppKey")) must be printable ASCII without spaces (it is sent as a header)")
        }
        guard !fields.hasProblems, let key, let secret else { return nil }
        return UmengApp(appId: fields.appId, gatewayAppKey: key, gatewayAppSecret: secret)
    }
}
