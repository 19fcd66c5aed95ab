import PassgateCore

/// Geetest's bench load (bench/README.md): OneLogin's `check_phone` with the number AES-256
/// encrypted, as the default app asks for it. Every request carries a fresh `processId` (the
/// emulator spends each flow id once). The app_key is made up for the bench's own sandbox.
extension GeetestProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [BenchApp(appId: "gt-bench", settings: [BenchSetting("appKey", .secret("b7Qe2Rt9Yu4Io1Pa6Sd3Fg8Hj5Kl0Zx2"))])],
            scenarios: [
                BenchScenario(
                    name: "gt", label: "Geetest OneLogin (check_phone)", operation: .phoneNumber, appId: "gt-bench",
                    upstream: "Geetest's check_phone JSON with a fresh process_id, a millisecond timestamp and its HMAC-SHA256 sign",
                    upstreamSuccess: #""status":200"#, fields: [BenchField("processId", .unique(prefix: "gtbench"))])
            ])
    }
}
