import PassgateCore

/// JVerification's bench load (bench/README.md): its phone-number path, whose number comes back
/// RSA-encrypted to the app's key (one private-key decrypt per request), so the sandbox's answer
/// is judged by its success code. The credentials are made up for the bench's own sandbox.
extension JVerificationProvider: BenchDescribing {
    public var benchLoad: BenchLoad {
        BenchLoad(
            apps: [
                BenchApp(appId: "jg-bench", settings: [
                    BenchSetting("appKey", .secret("8c1f4e2a9b7d03e6f5a1c8b2")),
                    BenchSetting("secret", .secret("e3b9071d5c2a8f46b1d0e7c9")),
                    BenchSetting("privateKey", .freshRSAKey),
                ])
            ],
            scenarios: [
                BenchScenario(
                    name: "jv", label: "JVerification (loginTokenVerify)", operation: .phoneNumber, appId: "jg-bench",
                    upstream: "JVerification's loginTokenVerify with its Basic credentials and a unique exID",
                    upstreamSuccess: #""code":8000,"#, privateKeyOperations: 1)
            ])
    }
}
