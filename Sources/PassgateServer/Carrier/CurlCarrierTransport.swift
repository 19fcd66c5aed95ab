import PassgateCore
import CurlTransport

/// The carrier transport over the libcurl client: maps curl's failure kinds onto
/// `TransportFailure`, keeping curl's own code and text for logs.
struct CurlCarrierTransport: CarrierTransport {
    let client: CurlHTTPClient

    func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
        do {
            let response = try await client.send(CurlHTTPClient.Request(
                method: CurlHTTPClient.Method(rawValue: request.method), url: request.url, headers: request.headers, body: request.body,
                connectTimeoutMs: request.connectTimeoutMs, timeoutMs: request.timeoutMs,
                caFile: request.options.caFile, proxy: request.options.proxy
            ))
            return CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body, headers: response.headers)
        } catch let error as CurlTransportError {
            throw TransportFailure(kind: Self.kind(of: error), detail: error.description, host: error.host ?? "carrier")
        }
    }

    /// The transport's view of "did it leave?" decides; the kind only refines the message.
    /// (A TLS 1.3 server rejecting a client certificate does so after the request was written.)
    static func kind(of error: CurlTransportError) -> TransportFailure.Kind {
        let kind = refinedKind(of: error)
        return error.mayHaveBeenDelivered && !kind.mayHaveBeenDelivered ? .noAnswer : kind
    }

    private static func refinedKind(of error: CurlTransportError) -> TransportFailure.Kind {
        switch error.kind {
        case .dnsFailure: .dnsFailure
        case .connectionRefused: .connectionRefused
        case .connectTimeout: .connectTimeout
        case .tlsHandshakeFailed, .tlsCertificateRejected, .tlsConfigurationInvalid: .tlsFailure
        case .proxyFailed: .proxyFailure
        case .sendFailed: .sendFailure
        case .connectionReset: .noAnswer
        case .timeoutAfterSend: .timeoutAfterSend
        case .responseTooLarge: .responseTooLarge
        case .malformedResponse: .truncatedReply
        case .invalidRequest, .cancelled, .shutdown, .internalError: error.mayHaveBeenDelivered ? .noAnswer : .notStarted
        }
    }
}
