import CurlTransport
import PassgateConfig

extension PassgateConfiguration {
    /// The longest one exchange can spend at the carrier: every base URL tried, each to its
    /// timeout, plus a margin. Claims on a token live this long.
    var longestCarrierCallMs: Int {
        let providers = providers.values
        let longest = providers.map { $0.timeoutMs * max(1, $0.baseURLs.count) }.max() ?? 3000
        return longest + 2000
    }

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
