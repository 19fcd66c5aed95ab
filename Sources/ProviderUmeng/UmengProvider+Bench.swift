import PassgateCore

/// Umeng U-Verify's bench load (bench/README.md): its phone-number call through the Alibaba Cloud
/// API gateway, whose answer carries the number in clear. Its signature, nonce and timestamp are
/// headers fresh on every request, which the bench's pool lines carry. The Marketplace AppKey
/// and AppSecret are made up for the bench's own sandbox.
extension UmengProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [
                BenchApp(appId: "um-bench", settings: [
                    BenchSetting("gatewayAppKey", .secret("204099001")),
                    BenchSetting("gatewayAppSecret", .secret("UmBenchGatewaySecret7f3a9c1e")),
                ])
            ],
            scenarios: [
                BenchScenario(
                    name: "um", label: "Umeng U-Verify (phone number)", operation: .phoneNumber, appId: "um-bench",
                    upstream: "U-Verify's JSON through the API gateway with a fresh X-Ca-Nonce, a millisecond X-Ca-Timestamp and its HMAC-SHA256 X-Ca-Signature",
                    upstreamSuccess: #""mobile":"\#(BenchLoad.phoneNumber)""#)
            ])
    }
}
