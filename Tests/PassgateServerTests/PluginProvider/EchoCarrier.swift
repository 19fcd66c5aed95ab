import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenSSLCrypto
import PassgateCore
import Synchronization

/// The echo provider's carrier: checks the signature, spends each token once, answers a number
/// per token; `truncateReplies` cuts the success reply short (the number inside). It answers on
/// loopback (`serve`) where the wire matters, or in-process as the gateway's `CarrierTransport`,
/// where it can also fail the way a network does (`failTransfers`).
final class EchoCarrier: CarrierTransport {
    struct State {
        var calls = 0
        var spent: Set<String> = []
        var truncate = false
        var failure: TransportFailure.Kind?
        var sent: [CarrierHTTPRequest] = []
    }

    let secret: String
    let number: String
    private let state = Mutex(State())

    init(secret: String, number: String) {
        self.secret = secret
        self.number = number
    }

    /// Requests that reached the carrier (in-process: that were not failed by `failTransfers`).
    var calls: Int { state.withLock { $0.calls } }
    /// In-process only: every request handed to the transport, as it would go on the wire.
    var sent: [CarrierHTTPRequest] { state.withLock { $0.sent } }
    func truncateReplies() { state.withLock { $0.truncate = true } }
    /// In-process only: every transfer fails with `kind` (nil: they succeed again).
    func failTransfers(_ kind: TransportFailure.Kind?) { state.withLock { $0.failure = kind } }

    /// Runs the server until `body` returns; `body` gets its port.
    func serve<T: Sendable>(_ body: (Int) async throws -> T) async throws -> T {
        let router = Router()
        router.post("exchange") { request, _ -> Response in
            let text = self.answer(to: Array(try await request.body.collect(upTo: 65_536).readableBytesView))
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let server = Task { try await app.runService() }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return try await body(port)
    }

    func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
        let failure = state.withLock { state in
            state.sent.append(request)
            return state.failure
        }
        if let kind = failure {
            throw TransportFailure(kind: kind, detail: "failed by the test", host: "echo.invalid")
        }
        guard request.method == "POST", request.url.hasSuffix("/exchange") else {
            return CarrierHTTPReply(status: 404, contentType: "text/html", body: Array("<html>no such page</html>".utf8))
        }
        return CarrierHTTPReply(status: 200, contentType: "application/json", body: Array(answer(to: request.body).utf8))
    }

    /// The reply to a request body `{"token": …, "sig": …}`.
    private func answer(to body: [UInt8]) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: String] ?? [:]
        let token = object["token"] ?? ""
        let expected = (try? Digest.hmacSHA256(key: Array(secret.utf8), data: Array(token.utf8))).map(Hex.lowercase) ?? ""
        let (fresh, truncate) = state.withLock { state -> (Bool, Bool) in
            state.calls += 1
            return (state.spent.insert(token).inserted, state.truncate)
        }
        if object["sig"] != expected { return #"{"code":"7","ticket":"t-sig"}"# }
        if !fresh { return #"{"code":"9","ticket":"t-used"}"# }
        let full = #"{"code":"0","ticket":"t-\#(token.suffix(6))","number":"\#(number)"}"#
        return truncate ? String(full.dropLast(3)) : full
    }
}
