import PassgateCore
import ProviderAliyun
import ProviderCMCC
import ProviderGeetest
import ProviderGetui
import ProviderJVerification
import ProviderMobTech
import ProviderShanyan
import ProviderTencent
import ProviderUmeng
import ProviderYidun

extension ProviderRegistry {
    /// Every provider this build ships: the one list, which `passgate` (the composition root) hands
    /// to the configuration loader and the sandbox; tests and the fuzz targets use it too. Adding a
    /// provider is its own target, and one line here (docs/architecture.md, "Adding a provider").
    public static let builtIn = ProviderRegistry([
        CMCCProvider(),
        JVerificationProvider(),
        ShanyanProvider(),
        AliyunProvider(),
        GeetestProvider(),
        GetuiProvider(),
        YidunProvider(),
        TencentProvider(),
        MobTechProvider(),
        UmengProvider(),
    ])
}
