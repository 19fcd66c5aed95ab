import PassgateCore

/// Tencent Cloud's bench load (bench/README.md): `rapidauth/validate`, whose answer carries the
/// number in clear. Its fresh `random` is in the query, so each upstream request has its own
/// path. The optional `carrier` field is left out. The AppKey is made up for the bench's own sandbox.
extension TencentProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [BenchApp(appId: "1400990001", settings: [BenchSetting("appKey", .secret("tcBenchAppKey6e2f9a1c7d3b"))])],
            scenarios: [
                BenchScenario(
                    name: "tc", label: "Tencent Cloud (rapidauth validate)", operation: .phoneNumber, appId: "1400990001",
                    upstream: "Tencent Cloud's validate JSON with a fresh 10-digit random in the query, the time in seconds and its SHA-256 sig",
                    upstreamSuccess: #""mobile":"\#(BenchLoad.phoneNumber)""#)
            ])
    }
}
