import Foundation
import OpenSSLCrypto
import PassgateTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension ServeLifecycleTests {
    /// A keep-alive client that never checks health: once the drain begins, each answer tells it
    /// to move (`Connection: close`), so it never sends on a connection the server is about to
    /// drop. On the wire, since the header and the close are what it sees.
    @Test("SIGTERM: a keep-alive client sending through the drain gets every answer, each with Connection: close, and no connection error")
    func keepAliveClientThroughTheDrain() async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        try "KEEPsecret0123456789ABCDEF012345".write(toFile: "\(directory)/secret", atomically: true, encoding: .utf8)
        let hash = Hex.lowercase(try Digest.sha256(Array("keep-alive-key".utf8)))
        let (child, api, _) = try await Self.serve("""
            server: {host: 127.0.0.1, port: 0, drainSeconds: 30, shutdownTimeoutSeconds: 5}
            metrics: {port: 0}
            log: {level: info, format: json}
            providers: {cmcc: {baseURLs: ["http://127.0.0.1:9"]}}
            apps:
              - {appId: "\(Self.app)", provider: cmcc, signMode: md5, secret: "file:\(directory)/secret"}
            clients:
              - {id: keep, apiKeySHA256: "\(hash)", apps: ["\(Self.app)"]}
            sandbox: {enabled: false}
            audit: {path: "\(directory)/audit/audit.jsonl"}
            """, in: directory)
        defer { child.terminate(grace: 0) }
        var socket = try LoopbackSocket(port: api)
        func ask() async throws -> WireResponse {
            try socket.send("GET /readyz HTTP/1.1\r\nHost: passgate\r\n\r\n")
            return try await socket.readResponse()
        }
        let before = try await ask()
        #expect(before.status == 200 && before.headers["connection"] == nil)

        child.send(SIGTERM)
        // The same connection until the drain shows (/readyz 503): the answers before it keep it open.
        var answer = try await ask()
        var asked = 1
        while answer.status == 200, asked < 500 {
            #expect(answer.headers["connection"] == nil)
            answer = try await ask()
            asked += 1
        }
        #expect(answer.status == 503, "the drain never began")
        // From then on every answer closes its connection after it, and the client, told so,
        // opens a new one: every request answered, none sent on a closing connection.
        for _ in 0..<10 {
            #expect(answer.status == 503 && answer.headers["connection"] == "close", "\(answer.status) \(answer.headers)")
            #expect(try await socket.readsEndOfFile())
            socket = try LoopbackSocket(port: api)
            answer = try await ask()
        }
    }
}
