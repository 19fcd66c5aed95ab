import CarrierSandbox
import CurlTransport
import Foundation
import PassgateProviders
import ProviderCMCC
import PassgateTestSupport
import Testing

/// `passgate-bench-proxy`, the benchmark's bare-proxy reference: its figures stand for "Passgate's
/// stack with none of its work" only if it really forwards every request to the upstream and
/// hands back exactly what the upstream said.
@Suite("Bench proxy")
struct BenchProxyTests {
    static let app = "300011111111"

    /// The proxy next to the `passgate` binary SwiftPM built for these tests.
    static var proxyBinary: String {
        URL(fileURLWithPath: ProcessRunner.passgate).deletingLastPathComponent().appendingPathComponent("passgate-bench-proxy").path
    }

    @Test("it answers with the sandbox's own status and body, byte for byte, for a success and for a rejection")
    func forwardsVerbatim() async throws {
        let carrier = CarrierSandbox(configuration: SandboxConfiguration(apps: [CMCCEmulator.app(appId: Self.app, md5Secret: "bench-proxy-test-secret-0123456")]), registry: .builtIn)
        let sandboxPort = try await carrier.start()
        let port = try TestPorts.reserve()
        let proxy = try Subprocess.launch(Self.proxyBinary, [String(port), "http://127.0.0.1:\(sandboxPort)"])
        defer { proxy.terminate(grace: 2) }
        let http = CurlHTTPClient(configuration: .init(connectTimeoutMs: 500, timeoutMs: 5_000))
        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? await http.send(.init(url: "http://127.0.0.1:\(port)/healthz")))?.status == 200
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(ready, "passgate-bench-proxy did not answer /healthz on port \(port)")

        func post(_ port: Int, _ path: String, _ body: String) async throws -> (Int, String) {
            let reply = try await http.send(.init(method: .post, url: "http://127.0.0.1:\(port)\(path)",
                                                  headers: [("Content-Type", "application/json")], body: Array(body.utf8)))
            return (reply.status, String(decoding: reply.body, as: UTF8.self))
        }
        // A rejection the sandbox words deterministically: the same bytes straight and through the proxy.
        let truncated = #"{"header":{"version":"2.0","msgid":"#
        let direct = try await post(sandboxPort, "/unisdk/rsapi/loginTokenValidate", truncated)
        let proxied = try await post(port, "/unisdk/rsapi/loginTokenValidate", truncated)
        #expect(direct.1.contains(#""resultCode":"103211""#), "the sandbox should reject a truncated body: \(direct)")
        // The sandbox stamps each reply with its 17-digit systemtime; everything else must match.
        func unstamped(_ body: String) -> String {
            body.replacingOccurrences(of: #""systemtime":"[0-9]{17}""#, with: #""systemtime":"-""#, options: .regularExpression)
        }
        #expect(proxied.0 == direct.0)
        #expect(unstamped(proxied.1) == unstamped(direct.1))
        #expect(unstamped(direct.1) != direct.1, "the reply should carry a systemtime: \(direct.1)")

        // A non-200 status passes through too.
        let missing = try await post(sandboxPort, "/no/such/endpoint", "{}")
        let missingProxied = try await post(port, "/no/such/endpoint", "{}")
        #expect(missing.0 == 404, "\(missing)")
        #expect(missingProxied.0 == missing.0 && unstamped(missingProxied.1) == unstamped(missing.1), "\(missingProxied)")

        // A success reaches the sandbox: a token minted through the proxy is one the sandbox issued.
        let minted = try await post(port, "/sandbox/tokens", #"{"appId":"\#(Self.app)","phoneNumber":"13800138000"}"#)
        #expect(minted.0 == 200, "\(minted)")
        #expect(minted.1.contains(#""token":""#), "\(minted)")
        await http.shutdown(gracePeriodMs: 0)
        await carrier.shutdown()
    }

    @Test("wrong arguments print the usage and exit 64 instead of starting")
    func usage() async throws {
        for arguments in [[], ["8081"], ["not-a-port", "http://127.0.0.1:1"], ["8081", "https://example.com"]] {
            let result = try await ProcessRunner.run(Self.proxyBinary, arguments)
            #expect(result.status == 64, "\(arguments): \(result.status)")
            #expect(result.stdout.contains("usage: passgate-bench-proxy PORT UPSTREAM_BASE_URL"), "\(arguments)")
        }
    }
}
