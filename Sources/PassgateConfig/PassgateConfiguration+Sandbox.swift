import PassgateCore

extension PassgateConfiguration {
    /// Points every provider the sandbox emulates at it, keeping their timeouts.
    public mutating func pointProvidersAtSandbox(port: Int) {
        let host = sandbox.host.contains(":") ? "[\(sandbox.host)]" : sandbox.host
        for id in registry.emulators.map(\.providerID) {
            var provider = providers[id] ?? ProviderSettings(id: id, baseURLs: [])
            provider.baseURLs = ["http://\(host):\(port)"]
            // The sandbox serves every product on its one port.
            provider.verifyBaseURLs = []
            providers[id] = provider
        }
    }
}
