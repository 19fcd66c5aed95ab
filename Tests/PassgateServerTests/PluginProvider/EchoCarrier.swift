import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenSSLCrypto
import Synchronization

/// The echo provider's server on loopback: checks the signature, spends each token once, answers
/// a number per token; `truncate` cuts the success reply short (the number inside).
final class EchoCarrier: Sendable {
    let secret: String
    let number: String
    private let state = Mutex<(calls: Int, spent: Set<String>, truncate: Bool)>((0, [], false))

    init(secret: String, number: String) {
        self.secret = secret
        self.number = number
    }

    var calls: Int { state.withLock { $0.calls } }
    func truncateReplies() { state.withLock { $0.truncate = true } }

    /// Runs the server until `body` returns; `body` gets its port.
    func serve<T: Sendable>(_ body: (Int) async throws -> T) async throws -> T {
        let router = Router()
        router.post("exchange") { request, _ -> Response in
            let bytes = Array(try await request.body.collect(upTo: 65_536).readableBytesView)
            let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String] ?? [:]
            return self.answer(token: object["token"] ?? "", signature: object["sig"] ?? "")
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

    private func answer(token: String, signature: String) -> Response {
        let expected = (try? Digest.hmacSHA256(key: Array(secret.utf8), data: Array(token.utf8))).map(Hex.lowercase) ?? ""
        let (fresh, truncate) = state.withLock { state -> (Bool, Bool) in
            state.calls += 1
            return (state.spent.insert(token).inserted, state.truncate)
        }
        let text: String
        if signature != expected {
            text = #"{"code":"7","ticket":"t-sig"}"#
        } else if !fresh {
            text = #"{"code":"9","ticket":"t-used"}"#
        } else {
            let full = #"{"code":"0","ticket":"t-\#(token.suffix(6))","number":"\#(number)"}"#
            text = truncate ? String(full.dropLast(3)) : full
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
