import PassgateCore

/// Getui's bench load (bench/README.md): `gy_get_pn`, whose number comes AES-128 encrypted, so a
/// good answer is known by its success code. The `gyuid` is a device id Getui does not spend: one
/// fixed value. The secrets are made up for the bench's own sandbox.
extension GetuiProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [
                BenchApp(appId: "gy-bench", settings: [
                    BenchSetting("appSecret", .secret("Gy7bN3qW9eR1tY5uI2oP")),
                    BenchSetting("masterSecret", .secret("Ms4kD8fH2jL6zX0cV9bN")),
                ])
            ],
            scenarios: [
                BenchScenario(
                    name: "gy", label: "Getui (gy_get_pn)", operation: .phoneNumber, appId: "gy-bench",
                    upstream: "Getui's gy_get_pn JSON with the gyuid, a millisecond timestamp and its SHA-256 sign",
                    upstreamSuccess: #""result":"20000""#, fields: [BenchField("gyuid", .fixed("gybenchdevice0001"))])
            ])
    }
}
