import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Testing

/// The benchmark's shape at test scale: 1,024 connections at once, each answer delayed 200 ms.
@Suite("load")
struct LoadTests {
    @Test func servesOverAThousandConcurrentConnectionsWithLatency() async throws {
        var client = CurlHTTPClient.Configuration(connectTimeoutMs: 5000, timeoutMs: 20_000)
        client.maxConcurrentTransfers = 1024
        client.maxConnections = 1024
        try await withSandbox(client: client, { $0.benchMode = true; $0.latencyMs = 200 }) { sandbox in
            let tokens = try sandbox.sandbox.mintTokens(appId: Fixtures.md5AppId, phoneNumber: Fixtures.phone, count: 1024)
            let requests = try tokens.map { try sandbox.loginRequest(token: $0) }
            let codes = try await withThrowingTaskGroup(of: String.self) { group in
                for request in requests {
                    group.addTask { try await sandbox.login(request).resultCode }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(codes == ["103000": 1024])
            #expect(sandbox.sandbox.stats.loginCalls == 1024)
            // Served one after another, no two answers would ever wait out the latency together.
            #expect(sandbox.sandbox.stats.mostAnswersDelayedAtOnce > 1)
            #expect(sandbox.sandbox.stats.answersDelayedNow == 0)
        }
    }
}
