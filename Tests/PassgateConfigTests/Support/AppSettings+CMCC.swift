import PassgateConfig
import ProviderCMCC

extension AppSettings {
    /// The settings of a CMCC app (every app these tests load is one), nil for another provider's.
    var cmcc: CMCCApp? { settings as? CMCCApp }
}
