import PassgateCore

/// Shanyan's bench load (bench/README.md): its phone-number path; the number comes back
/// AES-encrypted, so the sandbox's answer is judged by its success code. The app id is also the
/// one Shanyan knows; the appKey is made up for the bench's own sandbox.
extension ShanyanProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [BenchApp(appId: "sy-bench", settings: [BenchSetting("appKey", .secret("Qm7xR2pL9vTc4KwZ"))])],
            scenarios: [
                BenchScenario(
                    name: "sy", label: "Shanyan (mobile-query)", operation: .phoneNumber, appId: "sy-bench",
                    upstream: "Shanyan's mobile-query form with a unique outId and its hex HMAC-SHA256 sign",
                    upstreamSuccess: #""code":"200000""#)
            ])
    }
}
