/// Why a ``CurlHTTPClient/send(_:)`` call produced no HTTP response.
///
/// The most important fact is ``delivery``: a carrier one-time token is spent as soon as the
/// carrier receives it, so a caller may retry (or fail over to another base URL) only when the
/// error proves the request never left: ``Delivery/notSent``.
///
/// ``kind`` is stable and safe to switch on; ``message`` is for humans (what happened and what to
/// check); ``curlCode`` and ``curlErrorText`` keep libcurl's own diagnosis for logs.
public struct CurlTransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, independent of libcurl's numbering.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The host name did not resolve (`CURLE_COULDNT_RESOLVE_HOST`).
        case dnsFailure = "dns_failure"
        /// Nothing accepted the TCP connection: refused or unreachable (`CURLE_COULDNT_CONNECT`).
        case connectionRefused = "connection_refused"
        /// Connect, proxy tunnel or TLS handshake did not finish within the connect timeout.
        case connectTimeout = "connect_timeout"
        /// The TLS handshake failed (`CURLE_SSL_CONNECT_ERROR`, `CURLE_SSL_CLIENTCERT`).
        case tlsHandshakeFailed = "tls_handshake_failed"
        /// The server certificate was not trusted or did not match the host (`CURLE_PEER_FAILED_VERIFICATION`).
        case tlsCertificateRejected = "tls_certificate_rejected"
        /// A local TLS file (CA bundle, client certificate or key) could not be used.
        case tlsConfigurationInvalid = "tls_configuration_invalid"
        /// The proxy could not be resolved or refused to open the tunnel.
        case proxyFailed = "proxy_failed"
        /// The request itself is unusable: malformed URL, unsupported scheme, bad header.
        case invalidRequest = "invalid_request"
        /// Writing the request failed part-way (`CURLE_SEND_ERROR`).
        case sendFailed = "send_failed"
        /// The connection closed or reset before the full response arrived
        /// (`CURLE_RECV_ERROR`, `CURLE_GOT_NOTHING`, `CURLE_PARTIAL_FILE`).
        case connectionReset = "connection_reset"
        /// The connection was up but the response did not complete within the timeout.
        case timeoutAfterSend = "timeout_after_send"
        /// The response body exceeded ``CurlHTTPClient/Configuration/maxResponseBytes``.
        case responseTooLarge = "response_too_large"
        /// The server's reply was not valid HTTP (`CURLE_WEIRD_SERVER_REPLY`, HTTP/2 framing errors).
        case malformedResponse = "malformed_response"
        /// The calling task was cancelled.
        case cancelled
        /// The client was shut down before or while the request ran.
        case shutdown
        /// An unexpected libcurl failure (out of memory, initialisation); a bug or a broken host.
        case internalError = "internal_error"
    }

    /// Whether the request may have reached the server.
    public enum Delivery: String, Sendable, Hashable {
        /// Proven not sent: no byte of the request left this process. Safe to retry.
        case notSent = "not_sent"
        /// The request may have been (partly or fully) received. Never retry a one-time token.
        case mayHaveBeenDelivered = "may_have_been_delivered"
    }

    /// The stable category.
    public var kind: Kind
    /// Whether the request may have reached the server.
    public var delivery: Delivery
    /// What happened and what to check, for humans.
    public var message: String
    /// The host of the request URL, when there was one.
    public var host: String?
    /// libcurl's `CURLcode`, when libcurl reported the failure.
    public var curlCode: Int?
    /// libcurl's error buffer text (`CURLOPT_ERRORBUFFER`), when it had one.
    public var curlErrorText: String?

    /// An error; public so fakes of the transport can produce every kind.
    public init(
        kind: Kind,
        delivery: Delivery,
        message: String,
        host: String? = nil,
        curlCode: Int? = nil,
        curlErrorText: String? = nil
    ) {
        self.kind = kind
        self.delivery = delivery
        self.message = message
        self.host = host
        self.curlCode = curlCode
        self.curlErrorText = curlErrorText
    }

    /// The kind's raw value, without associated details: safe as a metrics label.
    public var shortDescription: String { kind.rawValue }

    /// `true` unless the request provably never left.
    public var mayHaveBeenDelivered: Bool { delivery == .mayHaveBeenDelivered }

    public var description: String {
        var text = "CurlTransportError.\(kind.rawValue) (\(delivery.rawValue))"
        if let host { text += " host=\(host)" }
        text += ": \(message)"
        if let curlCode {
            text += " [curl \(curlCode)"
            if let curlErrorText, !curlErrorText.isEmpty { text += ": \(curlErrorText)" }
            text += "]"
        }
        return text
    }
}
