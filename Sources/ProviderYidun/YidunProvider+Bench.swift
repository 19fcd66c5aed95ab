import PassgateCore

/// NetEase Yidun's bench load (bench/README.md): its phone-number call, whose answer carries the
/// number in clear. Every request carries a fresh carrier `accessToken` (the emulator spends it
/// with Yidun's token). The business and product key are made up for the bench's own sandbox.
extension YidunProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [
                BenchApp(appId: "yd-bench", settings: [
                    BenchSetting("businessId", .secret("yd0b1e2n3c4h5b6u7s8i9n0e1s2s3id")),
                    BenchSetting("secretId", .secret("ydBenchSecretId4f7a2c9e")),
                    BenchSetting("secretKey", .secret("ydBenchSecretKey8d3b6e1a5c")),
                ])
            ],
            scenarios: [
                BenchScenario(
                    name: "yd", label: "NetEase Yidun (one-click login)", operation: .phoneNumber, appId: "yd-bench",
                    upstream: "Yidun's form with the carrier accessToken, a 32-character nonce, a millisecond timestamp and its MD5 signature",
                    upstreamSuccess: #""phone":"\#(BenchLoad.phoneNumber)""#, fields: [BenchField("accessToken", .unique(prefix: "ydbench"))])
            ])
    }
}
