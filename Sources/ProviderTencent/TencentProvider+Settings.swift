import PassgateCore

extension TencentProvider {
    /// Reads a Tencent Cloud app entry: `appId` is the `sdkappid` (digits), `appKey` (the secret)
    /// is required. Every problem is reported with its key; nil when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let appKey = fields.secret("appKey", purpose: "makes every sig wrong")
        if !fields.appId.utf8.allSatisfy({ (48...57).contains($0) }) || fields.appId.utf8.count > 20 {
            fields.report("appId", "\(fields.path(of: "appId")) must be the app's sdkappid from the Tencent Cloud console: digits only")
        }
        if !fields.isPresent("appKey") {
            fields.report("appKey", "\(fields.path(of: "appKey")) is required: the app's AppKey from the Tencent Cloud console, as env:NAME or file:PATH")
        } else if appKey?.isEmpty == true {
            fields.report("appKey", "\(fields.path(of: "appKey")) is empty")
        }
        guard !fields.hasProblems, let appKey else { return nil }
        return TencentApp(appId: fields.appId, appKey: appKey)
    }
}
