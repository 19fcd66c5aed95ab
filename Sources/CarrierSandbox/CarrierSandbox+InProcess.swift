import PassgateCore

/// The sandbox as a ``CarrierTransport``: a provider's request answered by the same engine the
/// listener runs (its emulator checks the signature, spends the token, picks the code; the
/// current fault shapes the reply), without a socket. Server tests use it in-process, where the
/// provider's real reply bytes matter and the wire does not.
///
/// The caller is `127.0.0.1`. Latency is not simulated (the test holds a call instead); a fault
/// that resets the connection fails the transfer as `sendFailure`, one that never answers as
/// `timeoutAfterSend`: both after sending, as libcurl reports them.
extension CarrierSandbox: CarrierTransport {
    public func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
        let afterScheme = request.url.firstRange(of: "://").map { request.url[$0.upperBound...] } ?? request.url[...]
        let host = String(afterScheme.prefix { $0 != "/" })
        func header(_ name: String) -> String? { request.headers.first { ASCIICase.equals($0.name, name) }?.value }
        let answer = engine.handle(EmulatorRequest(
            method: request.method, uri: String(afterScheme.dropFirst(host.count)), body: request.body, peerIP: "127.0.0.1",
            authorization: header("authorization"), contentType: header("content-type"),
            headers: request.headers.map { (name: $0.name, value: $0.value) }))
        switch answer.action {
        case .respond(let status, let contentType, let body, let headers):
            return CarrierHTTPReply(status: status, contentType: contentType, body: body, headers: headers.map { (name: $0.0, value: $0.1) })
        case .reset:
            throw TransportFailure(kind: .sendFailure, detail: "the sandbox reset the connection", host: host)
        case .hold:
            throw TransportFailure(kind: .timeoutAfterSend, detail: "the sandbox never answered", host: host)
        }
    }
}
