import CurlTransport
import PassgateConfig

extension PassgateConfiguration {
    /// The libcurl client settings. One client serves every provider; each request carries its
    /// provider's timeouts, CA bundle and proxy. The client's own transfer cap sits above the sum of
    /// the providers' call caps, so the gateway's cap is the one that holds; a keep-alive pool
    /// smaller than the calls in flight would close connections after use and reconnect (a TLS
    /// handshake per call).
    var curlConfiguration: CurlHTTPClient.Configuration {
        var curl = CurlHTTPClient.Configuration()
        let calls = providers.values.reduce(0) { $0 + $1.maxConcurrentCalls }
        curl.maxConcurrentTransfers = max(curl.maxConcurrentTransfers, calls)
        curl.maxConnections = max(curl.maxConnections, calls)
        // epoll unless a provider asks for libcurl's portable loop (one loop serves them all).
        curl.socketEvents = !providers.values.contains { $0.eventLoop == .poll }
        return curl
    }
}
