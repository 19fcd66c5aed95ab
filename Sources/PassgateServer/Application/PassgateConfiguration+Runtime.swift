import CurlTransport
import EventLoopExecution
import NIOCore
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

extension ServerSettings {
    /// The API listener's limits on its clients, from `server:`.
    var connectionLimits: ConnectionLimits {
        ConnectionLimits(
            headTimeout: .milliseconds(Int64(headerTimeoutMs)), bodyTimeout: .milliseconds(Int64(bodyTimeoutMs)),
            idleTimeout: .milliseconds(Int64(idleTimeoutMs)), maxConnections: maxConnections, maxHeadBytes: maxHeaderBytes)
    }

    /// The admin and metrics listeners' limits: the API's time and head limits (a client of
    /// either is as slow or as fast as an API client, behind the same network), and at most 256
    /// connections each. Their clients are a scraper and an operator; a flood on either port must
    /// not be able to take the memory the API listener's connections need.
    var operationsConnectionLimits: ConnectionLimits {
        var limits = connectionLimits
        limits.maxConnections = min(maxConnections, Self.operationsMaxConnections)
        return limits
    }

    /// Connections the admin or the metrics listener holds at most.
    static let operationsMaxConnections = 256
}
