import PassgateCore
import CurlTransport
import Testing

@testable import PassgateServer

@Suite("curl failures seen by the carrier gateway")
struct CurlCarrierTransportTests {
    static let cases: [(CurlTransportError.Kind, CurlTransportError.Delivery)] = CurlTransportError.Kind.allCases.flatMap { kind in
        [(kind, .notSent), (kind, .mayHaveBeenDelivered)]
    }

    @Test("the transport's delivery verdict always wins: a possibly delivered failure is never retryable", arguments: cases)
    func deliveryWins(kind: CurlTransportError.Kind, delivery: CurlTransportError.Delivery) {
        let error = CurlTransportError(kind: kind, delivery: delivery, message: "m", host: "carrier.test")
        let mapped = CurlCarrierTransport.kind(of: error)
        if delivery == .mayHaveBeenDelivered {
            #expect(mapped.mayHaveBeenDelivered, "\(kind) delivered mapped to \(mapped)")
            #expect(!PassgateError(transport: TransportFailure(kind: mapped, detail: "", host: "h")).retryable)
        }
    }

    @Test("a TLS client-certificate rejection after the request was written is carrier_timeout, not a retryable outage")
    func tlsAfterWrite() {
        let error = CurlTransportError(kind: .tlsHandshakeFailed, delivery: .mayHaveBeenDelivered, message: "alert", host: "carrier.test", curlCode: 56)
        #expect(PassgateError(transport: TransportFailure(kind: CurlCarrierTransport.kind(of: error), detail: "", host: "h")).code == .carrierTimeout)
        let before = CurlTransportError(kind: .tlsCertificateRejected, delivery: .notSent, message: "verify", host: "carrier.test", curlCode: 60)
        #expect(CurlCarrierTransport.kind(of: before) == .tlsFailure)
    }
}
