import PassgateCore

extension ShanyanProvider {
    /// Reads a Shanyan app entry: `appKey` required (the appId is Shanyan's appId), `privateKey`
    /// optional (RSA numbers, `encryptType=1`), `signCase` lower (default) or upper. Every
    /// problem is reported with its key; nil when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let appKey = fields.secret("appKey", purpose: "makes every signature wrong and every number undecryptable")
        let privateKey = fields.privateKey("privateKey")
        let signCase = fields.choice("signCase", ShanyanApp.SignCase.allCases.map(\.rawValue)).flatMap(ShanyanApp.SignCase.init(rawValue:))
        if !fields.isPresent("appKey") {
            fields.report("appKey", "\(fields.path(of: "appKey")) is required: the app's appKey from the Shanyan console, as env:NAME or file:PATH")
        } else if appKey?.isEmpty == true {
            fields.report("appKey", "\(fields.path(of: "appKey")) is empty")
        }
        guard !fields.hasProblems, let appKey else { return nil }
        return ShanyanApp(appId: fields.appId, appKey: appKey, privateKey: privateKey, signCase: signCase ?? .lower)
    }
}
