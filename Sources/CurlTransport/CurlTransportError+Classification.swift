import CCurl

/// What libcurl reported about one failed transfer, read from the easy handle before cleanup.
struct CurlTransferFacts: Sendable {
    var code: Int
    var errorText: String
    var host: String?
    var usesTLS: Bool
    /// `CURLINFO_CONNECT_TIME_T`: zero for a reused connection, and for TLS until the handshake is done.
    var connectTimeMicros: Int64 = 0
    /// `CURLINFO_APPCONNECT_TIME_T`: the TLS handshake finished.
    var appConnectTimeMicros: Int64 = 0
    /// `CURLINFO_PRETRANSFER_TIME_T`: curl stamps it *after* the request was written (on entering
    /// the PERFORMING state), so zero does not prove that nothing was sent; only non-zero proves it was.
    var pretransferTimeMicros: Int64 = 0
    /// `CURLINFO_NUM_CONNECTS`: new connections made for this transfer.
    var newConnections: Int = 0
    /// `CURLINFO_LOCAL_PORT`: curl records it only once a connection is established (or reused).
    var localPort: Int = 0
    var responseCapExceeded = false
    var connectTimeoutMs = 0
    var timeoutMs = 0
    var maxResponseBytes = 0
    var viaProxy = false

    /// Whether any byte of the request may have been written to a connection.
    ///
    /// Only a connection that is fully up (TCP, proxy tunnel, TLS) carries request bytes. Measured
    /// on curl 7.88: a refused, a SYN-dropped and a TLS-stalled connect leave connect/appconnect/
    /// pretransfer at zero, and the first two leave the local port at zero too; a reused connection
    /// reports no new connection, a zero connect time and a non-zero local port.
    var requestMayHaveLeft: Bool {
        if pretransferTimeMicros > 0 || appConnectTimeMicros > 0 { return true }
        if !usesTLS && connectTimeMicros > 0 { return true }
        return newConnections == 0 && localPort > 0
    }
}

extension CurlTransportError {
    /// Maps a libcurl failure to a kind and an honest delivery verdict.
    static func classify(_ facts: CurlTransferFacts) -> CurlTransportError {
        let code = CURLcode(rawValue: UInt32(clamping: facts.code))
        let delivery: Delivery = facts.requestMayHaveLeft ? .mayHaveBeenDelivered : .notSent
        let hostText = facts.host ?? "the server"
        // Failing while only the proxy had been talked to: the request cannot have left.
        let proxyStage = facts.viaProxy && !facts.requestMayHaveLeft
        let kind: Kind
        let message: String
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            kind = .dnsFailure
            message = "could not resolve \(hostText); check the host name and the resolver (/etc/resolv.conf)"
        case CURLE_COULDNT_RESOLVE_PROXY:
            kind = .proxyFailed
            message = "could not resolve the proxy host; check the proxy URL"
        case CURLE_PROXY:
            kind = .proxyFailed
            message = "the proxy refused or failed the tunnel to \(hostText); check the proxy and its allow list"
        case CURLE_COULDNT_CONNECT where facts.viaProxy:
            // With a proxy configured curl itself connects only to the proxy.
            kind = .proxyFailed
            message = "could not connect to the proxy; check that it is running and reachable"
        case CURLE_COULDNT_CONNECT:
            kind = .connectionRefused
            message = "could not connect to \(hostText): refused or unreachable; check the port and firewall"
        case CURLE_RECV_ERROR where proxyStage, CURLE_SEND_ERROR where proxyStage, CURLE_GOT_NOTHING where proxyStage:
            // The exchange with the proxy (CONNECT tunnel) failed before the request could leave.
            kind = .proxyFailed
            message = "the proxy did not open a tunnel to \(hostText); check the proxy, its allow list and its logs"
        case CURLE_OPERATION_TIMEDOUT where !facts.requestMayHaveLeft:
            kind = .connectTimeout
            message = "no connection to \(hostText) within \(facts.connectTimeoutMs) ms (connect, tunnel or TLS handshake); "
                + "check reachability and the egress path"
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timeoutAfterSend
            message = "\(hostText) did not answer within \(facts.timeoutMs) ms after the request was sent; it may have processed it"
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CLIENTCERT:
            kind = .tlsHandshakeFailed
            message = "TLS handshake with \(hostText) failed; check TLS versions (1.2+), client certificate and proxy"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_ISSUER_ERROR:
            kind = .tlsCertificateRejected
            message = "the certificate of \(hostText) was not trusted or does not match its name; check caFile/caPath and the URL host"
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CIPHER, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED:
            kind = .tlsConfigurationInvalid
            message = "a local TLS file could not be used; check caFile, caPath, clientCertificateFile and clientKeyFile"
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT:
            kind = .invalidRequest
            message = "the request URL is malformed or not http/https"
        case CURLE_RECV_ERROR where facts.usesTLS && facts.errorText.contains("alert"):
            // A TLS alert read after our side of the handshake finished: with TLS 1.3 a server
            // rejects a client certificate only then, after curl may have written the request.
            // The request bytes were on the wire, so the delivery verdict stays conservative.
            kind = .tlsHandshakeFailed
            message = "\(hostText) ended the TLS session with an alert; check the client certificate and key (mutual TLS)"
        case CURLE_SEND_ERROR:
            kind = .sendFailed
            message = "sending the request to \(hostText) failed part-way; it may have been received"
        case CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            kind = .connectionReset
            message = "the connection to \(hostText) closed before the full response arrived; the request may have been processed"
        case CURLE_FILESIZE_EXCEEDED:
            kind = .responseTooLarge
            message = "the response from \(hostText) is larger than maxResponseBytes (\(facts.maxResponseBytes))"
        case CURLE_WRITE_ERROR where facts.responseCapExceeded:
            kind = .responseTooLarge
            message = "the response from \(hostText) is larger than maxResponseBytes (\(facts.maxResponseBytes))"
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_BAD_CONTENT_ENCODING:
            kind = .malformedResponse
            message = "\(hostText) sent a reply that is not valid HTTP; check that the URL points at an HTTP server"
        default:
            kind = .internalError
            message = "unexpected libcurl failure talking to \(hostText)"
        }
        return CurlTransportError(
            // A body over the cap proves a response was under way, whatever the timings say.
            kind: kind, delivery: kind == .responseTooLarge ? .mayHaveBeenDelivered : delivery,
            message: message, host: facts.host, curlCode: facts.code, curlErrorText: facts.errorText
        )
    }

    /// The caller's task was cancelled; `facts` is `nil` when the transfer had not started.
    static func cancelled(host: String?, facts: CurlTransferFacts?) -> CurlTransportError {
        let sent = facts?.requestMayHaveLeft ?? false
        return CurlTransportError(
            kind: .cancelled, delivery: sent ? .mayHaveBeenDelivered : .notSent,
            message: sent
                ? "the call was cancelled after the request to \(host ?? "the server") may have been sent"
                : "the call was cancelled before the request was sent",
            host: host
        )
    }

    /// The client is shutting down; `facts` is `nil` when the transfer had not started.
    static func shutdown(host: String?, facts: CurlTransferFacts?) -> CurlTransportError {
        let sent = facts?.requestMayHaveLeft ?? false
        return CurlTransportError(
            kind: .shutdown, delivery: sent ? .mayHaveBeenDelivered : .notSent,
            message: sent
                ? "the client shut down before \(host ?? "the server") answered; the request may have been processed"
                : "the client is shut down; the request was not sent",
            host: host
        )
    }
}
