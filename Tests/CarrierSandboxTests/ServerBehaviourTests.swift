import PassgateTestSupport
import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Foundation
import Testing

/// HTTP-level behaviour: concurrency, keep-alive, shutdown, limits, statistics.
@Suite("server behaviour")
struct ServerBehaviourTests {
    @Test func latencyIsAppliedConcurrentlyNotSerially() async throws {
        try await withSandbox({ $0.latencyMs = 200 }) { sandbox in
            // Distinct numbers: the per-number token limit is 30.
            var requests: [CMCCLoginRequest] = []
            for index in 0..<50 {
                requests.append(try sandbox.loginRequest(token: try await sandbox.mint(phone: "1380013\(String(format: "%04d", index))")))
            }
            let codes = try await withThrowingTaskGroup(of: (String, Duration).self) { group in
                for request in requests {
                    group.addTask {
                        let began = ContinuousClock.now
                        let reply = try await sandbox.login(request)
                        return (reply.resultCode, ContinuousClock.now - began)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(codes.count == 50)
            #expect(codes.allSatisfy { $0.0 == "103000" })
            #expect(codes.allSatisfy { $0.1 >= .milliseconds(200) })
            // Served one after another, no two answers would ever wait out the latency together.
            #expect(sandbox.sandbox.stats.mostAnswersDelayedAtOnce > 1)
        }
    }

    @Test func keepAliveServesSequentialRequestsOnOneConnection() async throws {
        try await withSandbox { sandbox in
            var reused: [Bool] = []
            for _ in 0..<20 {
                let request = try sandbox.loginRequest(token: try await sandbox.mint())
                let response = try await sandbox.post(CMCCLoginRequest.path, request.body)
                #expect(try object(response.body)["resultCode"] as? String == "103000")
                reused.append(response.connectionReused)
            }
            #expect(reused.dropFirst().allSatisfy { $0 }, "reuse per request: \(reused)")
        }
    }

    @Test func statsCountCallsCodesAndTokens() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            _ = try await sandbox.login(token: token)
            _ = try await sandbox.login(token: token)
            _ = try await sandbox.login(token: try await sandbox.mint(), signing: .md5(secret: "wrong"))
            _ = try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify")))
            let stats = sandbox.sandbox.stats
            #expect(stats.loginCalls == 3)
            #expect(stats.verifyCalls == 1)
            #expect(stats.loginResultCodes == ["103000": 1, "104201": 1, "103101": 1])
            #expect(stats.verifyResultCodes == ["000": 1])
            #expect(stats.tokensMinted == 3)
            #expect(stats.tokensConsumed == 2)
            #expect(stats.faultsApplied.isEmpty)

            let response = try await sandbox.send(.get, "/sandbox/stats")
            #expect(response.header("Content-Type") == "application/json;charset=UTF-8")
            let decoded = try JSONDecoder().decode(SandboxStats.self, from: Data(response.body))
            #expect(decoded == stats)
        }
    }

    @Test func mintingRejectsBadInputNamingTheField() async throws {
        try await withSandbox { sandbox in
            let cases: [([String: Any], String)] = [
                (["appId": "399999999999", "phoneNumber": Fixtures.phone], "appId"),
                (["appId": Fixtures.md5AppId, "phoneNumber": "12800138000"], "phoneNumber"),
                (["appId": Fixtures.md5AppId], "phoneNumber"),
                (["appId": Fixtures.md5AppId, "phoneNumber": Fixtures.phone, "product": "sms"], "product"),
                (["appId": Fixtures.md5AppId, "phoneNumber": Fixtures.phone, "count": 5], "count"),
            ]
            for (body, field) in cases {
                let response = try await sandbox.post("/sandbox/tokens", json(body))
                #expect(response.status == 400)
                let message = try #require(try object(response.body)["error"] as? String)
                #expect(message.hasPrefix(field + ":"), "\(body) -> \(message)")
            }
            let minted = try await sandbox.post("/sandbox/tokens", json(["appId": Fixtures.md5AppId, "phoneNumber": Fixtures.phone]))
            let reply = try object(minted.body)
            let token = try #require(reply["token"] as? String)
            #expect(reply["expiresInSeconds"] as? Int == 120)
            #expect(token.hasPrefix("STsid") && (50...60).contains(token.count))
            #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        }
    }

    @Test func atMostThirtyUnusedTokensPerNumberInTenMinutes() async throws {
        try await withSandbox { sandbox in
            for _ in 0..<30 { _ = try await sandbox.mint() }
            let refused = try await sandbox.post("/sandbox/tokens", json(["appId": Fixtures.md5AppId, "phoneNumber": Fixtures.phone]))
            #expect(refused.status == 400)
            #expect(refused.bodyText.contains("at most 30"))
            _ = try await sandbox.mint(phone: Fixtures.otherPhone)
            sandbox.clock.advance(milliseconds: 600_001)
            _ = try await sandbox.mint()
        }
    }

    @Test func benchModeMintsBatchesWithoutThePerNumberLimit() async throws {
        try await withSandbox({ $0.benchMode = true }) { sandbox in
            let response = try await sandbox.post("/sandbox/tokens", json(["appId": Fixtures.rsaAppId, "phoneNumber": Fixtures.phone, "count": 100]))
            let tokens = try #require(try object(response.body)["tokens"] as? [String])
            #expect(tokens.count == 100)
            #expect(Set(tokens).count == 100)
            let reply = try await sandbox.login(token: tokens[99], appId: Fixtures.rsaAppId, signing: Fixtures.rsaSigning)
            #expect(try MSISDN.decrypt(try #require(reply.msisdn), with: Fixtures.rsaKey) == Fixtures.phone)
            #expect(try await sandbox.login(token: tokens[0], appId: Fixtures.rsaAppId, signing: .rsa(privateKey: Fixtures.strangerKey)).resultCode == "103101")
            let tooMany = try await sandbox.post("/sandbox/tokens", json(["appId": Fixtures.md5AppId, "phoneNumber": Fixtures.phone, "count": 10_001]))
            #expect(tooMany.status == 400)
        }
    }

    @Test func unknownRoutesOversizedBodiesAndWrongMethodsGetJSONErrors() async throws {
        try await withSandbox { sandbox in
            let missing = try await sandbox.send(.get, "/nowhere")
            #expect(missing.status == 404)
            #expect(try object(missing.body)["error"] as? String != nil)
            let wrongMethod = try await sandbox.send(.get, CMCCLoginRequest.path)
            #expect(wrongMethod.status == 405)
            let huge = try await sandbox.post(CMCCLoginRequest.path, [UInt8](repeating: UInt8(ascii: "a"), count: 70_000))
            #expect(huge.status == 413)
            #expect(try await sandbox.login(token: sandbox.mint()).resultCode == "103000")
        }
    }
}
