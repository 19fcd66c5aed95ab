import PassgateCore

/// MobTech's bench load (bench/README.md): SecVerify's phone-number call, whose answer is
/// DES-encrypted, so a good answer is known by its success status. The sandbox takes a minted
/// token as the carrier's `opToken` too, so each request sends its token as its `opToken`; the
/// operator is fixed. The AppSecret is made up for the bench's own sandbox.
extension MobTechProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [BenchApp(appId: "mt-bench", settings: [BenchSetting("appSecret", .secret("Mt8cQ2vB6nX4zL1k"))])],
            scenarios: [
                BenchScenario(
                    name: "mt", label: "MobTech SecVerify (phone number)", operation: .phoneNumber, appId: "mt-bench",
                    upstream: "MobTech's JSON with the token, its opToken and operator, a millisecond timestamp and its MD5 sign",
                    upstreamSuccess: #""status":200"#,
                    fields: [BenchField("opToken", .token), BenchField("operator", .fixed("CMCC"))])
            ])
    }
}
