import PassgateCore
import ProviderAliyun
import ProviderCMCC
import ProviderJVerification
import ProviderShanyan

extension ProviderRegistry {
    /// Every provider this build ships. Adding a provider is its own target, and one line here
    /// (docs/architecture.md, "Adding a provider").
    public static let builtIn = ProviderRegistry([
        CMCCProvider(),
        JVerificationProvider(),
        ShanyanProvider(),
        AliyunProvider(),
    ])
}
