import CarrierKit
import CurlTransport

/// CarrierKit's transport over the libcurl client: maps curl's failure kinds onto
/// `TransportFailure`, keeping curl's own code and text for logs.
struct CurlCarrierTransport: CarrierTransport {
    let client: CurlHTTPClient

    func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
        do {
            let response = try await client.send(CurlHTTPClient.Request(
                method: .post, url: request.url, headers: request.headers, body: request.body,
                connectTimeoutMs: request.connectTimeoutMs, timeoutMs: request.timeoutMs
            ))
            let contentType = response.headers.first { $0.name.lowercased() == "content-type" }?.value
            return CarrierHTTPReply(status: response.status, contentType: contentType, body: response.body)
        } catch let error as CurlTransportError {
            throw TransportFailure(kind: Self.kind(of: error), detail: error.description, host: error.host ?? "carrier")
        }
    }

    /// The transport's view of "did it leave?" decides; the kind only refines the message.
    static func kind(of error: CurlTransportError) -> TransportFailure.Kind {
        switch error.kind {
        case .dnsFailure: return .dnsFailure
        case .connectionRefused: return .connectionRefused
        case .connectTimeout: return .connectTimeout
        case .tlsHandshakeFailed, .tlsCertificateRejected, .tlsConfigurationInvalid: return .tlsFailure
        case .proxyFailed: return error.mayHaveBeenDelivered ? .noAnswer : .proxyFailure
        case .sendFailed: return .sendFailure
        case .connectionReset: return .noAnswer
        case .timeoutAfterSend: return .timeoutAfterSend
        case .responseTooLarge: return .responseTooLarge
        case .malformedResponse: return .truncatedReply
        case .invalidRequest, .cancelled, .shutdown, .internalError:
            return error.mayHaveBeenDelivered ? .noAnswer : .notStarted
        }
    }
}
