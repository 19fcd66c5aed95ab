extension CarrierProvider {
    /// What a provider whose server API has no number verification answers to `verify`, before
    /// any call: `app_not_enabled` (the caller's configuration asks for something the provider
    /// cannot do), naming the provider as its documentation does (`name`) and the app.
    public func noVerification(for app: any ProviderApp, name: String) -> PassgateError {
        PassgateError(
            .appNotEnabled, .local("\(id) has no number verification"),
            message: "\(name) has no number-verification API: app \(app.appId) can only get phone numbers (POST /v1/phone-number).")
    }
}
