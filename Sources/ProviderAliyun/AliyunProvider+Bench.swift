import PassgateCore

/// Alibaba Cloud's bench load (bench/README.md): its phone-number path (`GetMobile`), whose
/// answer carries the number in clear. The AccessKey pair is made up for the bench's own sandbox.
extension AliyunProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [
                BenchApp(appId: "ali-bench", settings: [
                    BenchSetting("accessKeyId", .secret("LTAI5c0e9a7f1b3d8e2c4a6f")),
                    BenchSetting("secret", .secret("q8Vn2Lx7Tz0Pc5Rk9Wm3Hs6Jd1Fb4G")),
                ])
            ],
            scenarios: [
                BenchScenario(
                    name: "ali", label: "Alibaba Cloud (GetMobile)", operation: .phoneNumber, appId: "ali-bench",
                    upstream: "Alibaba Cloud's GetMobile RPC form with a unique SignatureNonce, a current UTC Timestamp and its HMAC-SHA1 Signature",
                    upstreamSuccess: #""Mobile":"\#(BenchLoad.phoneNumber)""#)
            ])
    }
}
