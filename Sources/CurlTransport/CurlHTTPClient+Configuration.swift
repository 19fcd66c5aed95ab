import PassgateCore
extension CurlHTTPClient {
    /// Settings shared by every request a ``CurlHTTPClient`` sends.
    ///
    /// Units are part of the names. What is deliberately *not* configurable: TLS peer and host
    /// verification are always on, the minimum TLS version is 1.2, redirects are never followed and
    /// only `http` and `https` URLs are accepted. A carrier call that silently talks to the wrong
    /// peer would leak one-time tokens, so there is no switch to turn those off.
    ///
    /// | field | default | meaning |
    /// |---|---|---|
    /// | `connectTimeoutMs` | 1000 | TCP connect plus TLS handshake (and proxy tunnel) |
    /// | `timeoutMs` | 3000 | whole transfer, from the moment it starts (queueing excluded) |
    /// | `maxConnections` | 32 | keep-alive connections kept for reuse, per multi handle (see below) |
    /// | `maxConcurrentTransfers` | 256 | transfers on the wire at once; the rest wait in a queue |
    /// | `maxResponseBytes` | 1 MiB | response body cap; larger bodies fail with `responseTooLarge` |
    /// | `maxIdleConnectionSeconds` | 30 | an idle connection older than this is not reused |
    /// | `caFile` / `caPath` | system store | trust anchors for the server certificate |
    /// | `clientCertificateFile` / `clientKeyFile` | none | PEM client certificate and key (mutual TLS) |
    /// | `proxy` | none | HTTP(S) proxy URL; `nil` also ignores `http_proxy`-style environment variables |
    /// | `userAgent` | `passgate-curl/1` | `User-Agent` header unless the request sets one; empty sends none |
    /// | `shutdownGracePeriodMs` | 5000 | how long a graceful shutdown lets in-flight transfers finish |
    /// | `socketEvents` | true | Linux: drive curl with epoll + `curl_multi_socket_action`; false: `curl_multi_perform` + `curl_multi_poll` |
    ///
    /// With socket events the engine runs one libcurl multi handle per 64 allowed concurrent
    /// transfers (`maxConcurrentTransfers`, at most 32 handles) and fills them in order, so up to
    /// 64 calls in flight share one connection pool; each handle keeps up to `maxConnections`.
    public struct Configuration: Sendable {
        /// Maximum time for the TCP connect, the proxy tunnel and the TLS handshake, in milliseconds.
        public var connectTimeoutMs: Int = 1_000
        /// Maximum time for a whole transfer once it has started, in milliseconds.
        public var timeoutMs: Int = 3_000
        /// Size of each multi handle's keep-alive pool: connections kept open for reuse.
        public var maxConnections: Int = 32
        /// Transfers running at the same time; excess requests wait in a FIFO queue, they do not fail.
        public var maxConcurrentTransfers: Int = 256
        /// Largest accepted response body, in bytes.
        public var maxResponseBytes: Int = 1 << 20
        /// Idle connections older than this are closed instead of reused, so a request is rarely
        /// written onto a connection the server has already timed out.
        public var maxIdleConnectionSeconds: Int = 30
        /// PEM bundle of CA certificates to verify the server with (`CURLOPT_CAINFO`).
        public var caFile: String?
        /// Directory of hashed CA certificates (`CURLOPT_CAPATH`).
        public var caPath: String?
        /// PEM client certificate for mutual TLS (`CURLOPT_SSLCERT`).
        public var clientCertificateFile: String?
        /// PEM private key of the client certificate (`CURLOPT_SSLKEY`).
        public var clientKeyFile: String?
        /// HTTP or HTTPS proxy URL, for example `http://egress-proxy:3128`.
        public var proxy: String?
        /// Value of the `User-Agent` header; empty sends none.
        public var userAgent: String = "passgate-curl/1"
        /// Grace period used by ``CurlHTTPClient/run()`` on graceful shutdown and by
        /// ``CurlHTTPClient/shutdown(gracePeriodMs:)`` when no period is given, in milliseconds.
        public var shutdownGracePeriodMs: Int = 5_000
        /// On Linux, wait for socket events with epoll and hand curl only the sockets that are ready
        /// (`curl_multi_socket_action`); `false` selects the portable loop, which runs every transfer
        /// on every turn. Other systems always use the portable loop.
        public var socketEvents: Bool = true
        /// What the engine reads for transfer times, the watchdog, shard renewal and the drain
        /// deadline. The waits themselves (curl's timers, `poll`) are the system's: a transfer on
        /// the wire takes real time whatever a test's clock says.
        public var clock: any PassgateClock = SystemClock()
        /// Tests only: moves the deadline the socket loop's watchdog assumes for every transfer by
        /// this many milliseconds (negative: earlier than curl's own timeout), so its fallback of
        /// failing a transfer curl keeps too long can be exercised against a well-behaved curl.
        var watchdogDeadlineShiftMs: Int = 0
        /// Transfers one libcurl multi handle runs before the engine puts the next on another
        /// (``CurlShardPicker``); tests lower it to exercise several shards with few calls.
        var transfersPerShard: Int = 64

        /// A configuration with every default listed in the table above.
        public init() {}

        /// A configuration with the timeouts most callers set, everything else defaulted.
        public init(connectTimeoutMs: Int, timeoutMs: Int) {
            self.connectTimeoutMs = connectTimeoutMs
            self.timeoutMs = timeoutMs
        }
    }
}
