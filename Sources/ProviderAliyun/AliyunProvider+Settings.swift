import PassgateCore

extension AliyunProvider {
    /// Reads an Alibaba Cloud app entry: `accessKeyId` and `secret` (the AccessKey secret)
    /// required, `regionId` optional (cn-hangzhou). Every problem is reported with its key; nil
    /// when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let keyId = fields.secret("accessKeyId", purpose: "makes every call fail (InvalidAccessKeyId.NotFound)")
        let secret = fields.secret("secret", purpose: "makes every signature wrong (SignatureDoesNotMatch)")
        let region = fields.choice("regionId", ["cn-hangzhou", "cn-shanghai", "cn-beijing", "cn-shenzhen"])
        for (key, value, what) in [("accessKeyId", keyId, "the RAM user's AccessKey ID"), ("secret", secret, "the AccessKey secret")] {
            if !fields.isPresent(key) {
                fields.report(key, "\(fields.path(of: key)) is required: \(what), as env:NAME or file:PATH")
            } else if value?.isEmpty == true {
                fields.report(key, "\(fields.path(of: key)) is empty")
            }
        }
        guard !fields.hasProblems, let keyId, let secret else { return nil }
        return AliyunApp(appId: fields.appId, accessKeyId: keyId, accessKeySecret: secret, regionId: region ?? "cn-hangzhou")
    }
}
