import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import OpenSSLCrypto
import PassgateConfig

extension PassgateConfiguration {
    /// The sandbox emulates every configured CMCC app with the same credentials.
    public var sandboxConfiguration: SandboxConfiguration {
        var sandbox = SandboxConfiguration()
        sandbox.host = self.sandbox.host
        sandbox.port = self.sandbox.port
        sandbox.latencyMs = self.sandbox.latencyMs
        sandbox.fault = self.sandbox.fault.flatMap(SandboxFault.init(rawValue:)) ?? .none
        sandbox.apps = apps.filter { $0.provider == CMCC.providerID }.map { app in
            SandboxApp(
                appId: app.appId, md5Secret: app.secret, appKey: app.appKey,
                signingKey: app.privateKey?.publicKey, encryptionKey: app.privateKey?.publicKey
            )
        }
        return sandbox
    }

    /// Points the CMCC provider at the embedded sandbox, keeping its timeouts.
    mutating func pointProvidersAtSandbox(port: Int) {
        var provider = providers[CMCC.providerID] ?? ProviderSettings(id: CMCC.providerID, baseURLs: [])
        let host = sandbox.host.contains(":") ? "[\(sandbox.host)]" : sandbox.host
        provider.baseURLs = ["http://\(host):\(port)"]
        providers[CMCC.providerID] = provider
    }

    /// The longest one exchange can spend at the carrier: every base URL tried, each to its
    /// timeout, plus a margin. Claims on a token live this long.
    var longestCarrierCallMs: Int {
        let providers = providers.values
        let longest = providers.map { $0.timeoutMs * max(1, $0.baseURLs.count) }.max() ?? 3000
        return longest + 2000
    }

    /// The libcurl client settings from the provider settings (one client serves all providers).
    var curlConfiguration: CurlHTTPClient.Configuration {
        var curl = CurlHTTPClient.Configuration()
        if let cmcc = providers[CMCC.providerID] {
            curl.connectTimeoutMs = cmcc.connectTimeoutMs
            curl.timeoutMs = cmcc.timeoutMs
            curl.caFile = cmcc.caFile
            curl.proxy = cmcc.proxy
            // The gateway already caps calls at maxConcurrentCalls; a lower transfer cap in curl
            // (default 256) would queue the rest, and a keep-alive pool smaller than the calls in
            // flight would close connections after use and reconnect (a TLS handshake per call).
            curl.maxConcurrentTransfers = max(curl.maxConcurrentTransfers, cmcc.maxConcurrentCalls)
            curl.maxConnections = max(curl.maxConnections, cmcc.maxConcurrentCalls)
            curl.socketEvents = cmcc.eventLoop == .epoll
        }
        return curl
    }
}
