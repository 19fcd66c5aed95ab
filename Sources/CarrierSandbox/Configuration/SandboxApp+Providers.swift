import OpenSSLCrypto
import PassgateCore
import ProviderAliyun
import ProviderCMCC
import ProviderJVerification
import ProviderShanyan

extension SandboxApp {
    /// The sandbox's side of a provider app Passgate is configured with: the credentials the
    /// provider's console would hold (the public half of each private key). nil for a provider
    /// the sandbox does not emulate.
    public init?(emulating app: any ProviderApp) {
        switch app {
        case let app as CMCCApp:
            self.init(
                appId: app.appId, md5Secret: app.secret, appKey: app.appKey,
                signingKey: app.privateKey?.publicKey, encryptionKey: app.privateKey?.publicKey)
        case let app as JVerificationApp:
            self.init(
                appId: app.appId, provider: JVerification.providerID, appKey: app.appKey, masterSecret: app.masterSecret,
                encryptionKey: app.privateKey?.publicKey)
        case let app as AliyunApp:
            self.init(appId: app.appId, provider: Aliyun.providerID, appKey: app.accessKeyId, masterSecret: app.accessKeySecret)
        case let app as ShanyanApp:
            self.init(appId: app.appId, provider: Shanyan.providerID, appKey: app.appKey, encryptionKey: app.privateKey?.publicKey)
        default:
            return nil
        }
    }
}

extension CarrierSandbox {
    /// The providers whose servers the sandbox answers for, on one port.
    public static let emulatedProviders = SandboxEngine.emulatedProviders
}
