/// How an HTTP exchange with the carrier failed, told in the one way that matters for
/// single-use tokens: could the request have reached the carrier?
///
/// Transports (libcurl in production, fakes in tests) throw this from `CarrierTransport.send`.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened. The first group proves the request never left; the second does not.
    public enum Kind: String, Sendable, CaseIterable {
        case dnsFailure, connectionRefused, connectTimeout, tlsFailure, proxyFailure, notStarted
        case sendFailure, noAnswer, timeoutAfterSend, truncatedReply, responseTooLarge

        /// Whether the carrier may have received the request (and so spent the token).
        public var mayHaveBeenDelivered: Bool {
            switch self {
            case .dnsFailure, .connectionRefused, .connectTimeout, .tlsFailure, .proxyFailure, .notStarted: false
            case .sendFailure, .noAnswer, .timeoutAfterSend, .truncatedReply, .responseTooLarge: true
            }
        }
    }

    public let kind: Kind
    /// The transport's own words (curl code and message), for logs.
    public let detail: String
    /// The host we were talking to.
    public let host: String

    public init(kind: Kind, detail: String, host: String) {
        self.kind = kind
        self.detail = detail
        self.host = host
    }

    public var description: String { "\(kind.rawValue) (\(host)): \(detail)" }
}

extension PassgateError {
    /// Maps a transport failure to the contract: not sent -> `carrier_unavailable` (safe to retry),
    /// sent without an answer -> `carrier_timeout`, sent with a broken answer -> `carrier_bad_response`.
    public init(transport failure: TransportFailure) {
        switch failure.kind {
        case .dnsFailure, .connectionRefused, .connectTimeout, .tlsFailure, .proxyFailure, .notStarted:
            let check = switch failure.kind {
            case .dnsFailure: "check DNS for \(failure.host) from this host"
            case .tlsFailure: "check the CA bundle (caFile) and any TLS-intercepting proxy"
            case .proxyFailure: "check the egress proxy"
            default: "check the network path and firewall to \(failure.host)"
            }
            self.init(
                .carrierUnavailable, .transport(failure),
                message: "The carrier at \(failure.host) could not be reached (\(failure.kind.rawValue)): \(check). The request was not sent; retrying with the same token is safe."
            )
        case .sendFailure, .noAnswer, .timeoutAfterSend:
            self.init(
                .carrierTimeout, .transport(failure),
                message: "The request was sent to \(failure.host) but no answer came (\(failure.kind.rawValue)); the token may be spent: get a new token before trying again."
            )
        case .truncatedReply, .responseTooLarge:
            self.init(
                .carrierBadResponse, .transport(failure),
                message: "The carrier at \(failure.host) sent an incomplete or oversized reply (\(failure.kind.rawValue)); the token may be spent."
            )
        }
    }
}
