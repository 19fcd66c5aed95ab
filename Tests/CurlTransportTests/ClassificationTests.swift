@testable import CurlTransport
import Testing

/// The classifier on facts curl could report but loopback cannot easily produce.
@Suite("Classification rules")
struct ClassificationTests {
    private func facts(_ code: Int, tls: Bool = false, connect: Int64 = 0, appConnect: Int64 = 0,
                       pretransfer: Int64 = 0, newConnections: Int = 0, localPort: Int = 0) -> CurlTransferFacts {
        var facts = CurlTransferFacts(code: code, errorText: "", host: "carrier.example", usesTLS: tls)
        facts.connectTimeMicros = connect
        facts.appConnectTimeMicros = appConnect
        facts.pretransferTimeMicros = pretransfer
        facts.newConnections = newConnections
        facts.localPort = localPort
        return facts
    }

    @Test("a send error on a fresh plain connection may have been delivered")
    func sendErrorFreshConnection() {
        let error = CurlTransportError.classify(facts(55, connect: 200, newConnections: 1, localPort: 40_000))
        #expect(error.kind == .sendFailed)
        #expect(error.delivery == .mayHaveBeenDelivered)
    }

    @Test("a send error on a reused connection may have been delivered, although curl reports no timings")
    func sendErrorReusedConnection() {
        let error = CurlTransportError.classify(facts(55, newConnections: 0, localPort: 40_000))
        #expect(error.delivery == .mayHaveBeenDelivered)
    }

    @Test("TLS failures before the handshake completed are not sent")
    func tlsFailures() {
        #expect(CurlTransportError.classify(facts(35, tls: true, newConnections: 1, localPort: 40_000)).kind == .tlsHandshakeFailed)
        #expect(CurlTransportError.classify(facts(35, tls: true, newConnections: 1, localPort: 40_000)).delivery == .notSent)
        #expect(CurlTransportError.classify(facts(60, tls: true, newConnections: 1, localPort: 40_000)).kind == .tlsCertificateRejected)
        #expect(CurlTransportError.classify(facts(58, tls: true)).kind == .tlsConfigurationInvalid)
    }

    @Test("a timeout is a connect timeout until the connection is fully up, then a timeout after send")
    func timeoutSplit() {
        let tcpOnly = CurlTransportError.classify(facts(28, tls: true, newConnections: 1, localPort: 40_000))
        #expect(tcpOnly.kind == .connectTimeout)
        #expect(tcpOnly.delivery == .notSent)
        let afterHandshake = CurlTransportError.classify(facts(28, tls: true, connect: 100, appConnect: 900, newConnections: 1, localPort: 40_000))
        #expect(afterHandshake.kind == .timeoutAfterSend)
        #expect(afterHandshake.delivery == .mayHaveBeenDelivered)
    }

    @Test("proxy and protocol errors map to their kinds", arguments: [
        (5, CurlTransportError.Kind.proxyFailed), (97, .proxyFailed), (8, .malformedResponse), (16, .malformedResponse),
        (52, .connectionReset), (56, .connectionReset), (18, .connectionReset), (1, .invalidRequest), (27, .internalError),
    ])
    func codeTable(code: Int, kind: CurlTransportError.Kind) {
        #expect(CurlTransportError.classify(facts(code)).kind == kind)
    }

    @Test("every kind has a distinct snake_case label")
    func labels() {
        let labels = CurlTransportError.Kind.allCases.map(\.rawValue)
        #expect(Set(labels).count == labels.count)
        #expect(labels.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" } })
    }
}
