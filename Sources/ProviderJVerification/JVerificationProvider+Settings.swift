import PassgateCore

extension JVerificationProvider {
    /// Reads a JVerification app entry: `appKey` and `secret` (the Master Secret) required,
    /// `privateKey` (needed to get numbers, not to verify them), `apiVersion` 1 (default) or 2,
    /// `endpoint` (a reseller's login API, `+Endpoint.swift`).
    /// Every problem is reported with its key; nil when there was one.
    public func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? {
        let appKey = fields.secret("appKey", purpose: "makes every call fail authentication (JVerification answers 9011)")
        let secret = fields.secret("secret", purpose: "makes every call fail authentication (JVerification answers 9011)")
        let privateKey = fields.privateKey("privateKey")
        let version = fields.choice("apiVersion", ["1", "2"])
        let endpoint = Self.readEndpoint(fields)
        if endpoint != nil, version == "2" {
            fields.report("apiVersion", "\(fields.path(of: "apiVersion")) cannot be 2 with an endpoint: the endpoint names the login API itself")
        }
        if !fields.isPresent("appKey") {
            fields.report("appKey", "\(fields.path(of: "appKey")) is required: the app's appKey from the JiGuang console, as env:NAME or file:PATH")
        }
        if !fields.isPresent("secret") {
            fields.report("secret", "\(fields.path(of: "secret")) is required: the app's Master Secret from the JiGuang console, as env:NAME or file:PATH")
        }
        for (key, value) in [("appKey", appKey), ("secret", secret)] where value?.isEmpty == true {
            fields.report(key, "\(fields.path(of: key)) is empty")
        }
        if let appKey, appKey.contains(":") {
            fields.report("appKey", "\(fields.path(of: "appKey")) contains ':', which HTTP Basic authentication cannot carry in a user name")
        }
        guard !fields.hasProblems, let appKey, let secret else { return nil }
        return JVerificationApp(appId: fields.appId, appKey: appKey, masterSecret: secret, privateKey: privateKey, apiVersion: version == "2" ? 2 : 1, endpoint: endpoint)
    }
}
