import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Foundation
import Testing

/// Each fault as the libcurl client sees it, and the token spent in every case.
@Suite("fault injection")
struct FaultInjectionTests {
    static let faults = SandboxFault.allCases.filter { $0 != .none }

    @Test(arguments: faults)
    func faultReachesTheClientAndTheTokenIsStillSpent(fault: SandboxFault) async throws {
        try await withSandbox({ $0.fault = fault }) { sandbox in
            let token = try await sandbox.mint()  // /sandbox/* is never faulted
            let request = try sandbox.loginRequest(token: token)
            let timeoutMs = fault == .noAnswer ? 300 : nil
            let outcome: Result<CurlHTTPClient.Response, CurlTransportError>
            do {
                outcome = .success(try await sandbox.post(CMCCLoginRequest.path, request.body, timeoutMs: timeoutMs))
            } catch let error as CurlTransportError {
                outcome = .failure(error)
            }
            try expectFault(fault, outcome, msgid: request.msgid)

            sandbox.sandbox.setFault(.none)
            #expect(try await sandbox.login(token: token).resultCode == "104201")
            let stats = sandbox.sandbox.stats
            #expect(stats.loginResultCodes["103000"] == 1)
            #expect(stats.tokensConsumed == 1)
            #expect(stats.faultsApplied[fault.rawValue, default: 0] >= 1)
        }
    }

    private func expectFault(_ fault: SandboxFault, _ outcome: Result<CurlHTTPClient.Response, CurlTransportError>, msgid: String) throws {
        switch fault {
        case .none:
            Issue.record("not a fault")
        case .http500, .http502:
            let response = try outcome.get()
            #expect(response.status == (fault == .http500 ? 500 : 502))
            #expect(throws: PassgateError.self) { try parseLogin(response, msgid: msgid) }
        case .html:
            let response = try outcome.get()
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(response.bodyText.hasPrefix("<html>"))
            let error = try #require(throws: PassgateError.self) { try parseLogin(response, msgid: msgid) }
            guard case .reply(.html) = error.reason else { Issue.record("expected an HTML reply problem, got \(error)"); return }
        case .truncatedJSON:
            let response = try outcome.get()
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json;charset=UTF-8")
            #expect(response.bodyText.hasPrefix(#"{"inresponseto":""#))
            #expect((try? JSONSerialization.jsonObject(with: Data(response.body))) == nil)
            let error = try #require(throws: PassgateError.self) { try parseLogin(response, msgid: msgid) }
            guard case .reply(.notJSON) = error.reason else { Issue.record("expected notJSON, got \(error)"); return }
        case .wrongInResponseTo:
            let response = try outcome.get()
            let reply = try object(response.body)
            #expect(reply["resultCode"] as? String == "103000")
            #expect((reply["inresponseto"] as? String).map { $0 != msgid && !$0.isEmpty } == true)
            let error = try #require(throws: PassgateError.self) { try parseLogin(response, msgid: msgid) }
            guard case .reply(.msgidMismatch) = error.reason else { Issue.record("expected msgidMismatch, got \(error)"); return }
        case .connectionReset:
            guard case .failure(let error) = outcome else { Issue.record("expected a transport error, got a response"); return }
            #expect(error.kind == .connectionReset)
            #expect(error.delivery == .mayHaveBeenDelivered)
        case .noAnswer:
            guard case .failure(let error) = outcome else { Issue.record("expected a timeout, got a response"); return }
            #expect(error.kind == .timeoutAfterSend)
            #expect(error.delivery == .mayHaveBeenDelivered)
        }
    }

    private func parseLogin(_ response: CurlHTTPClient.Response, msgid: String) throws -> CMCCLoginReply {
        try CMCCReplyParser.login(status: response.status, contentType: response.header("Content-Type"), body: response.body, expectedMsgid: msgid)
    }

    @Test func aResentRequestAfterAResetIsCaughtAsDuplicateMsgid() async throws {
        try await withSandbox { sandbox in
            // The mint leaves a kept-alive connection; libcurl (7.88) silently re-sends a request whose
            // reused connection dies before any reply byte. The sandbox must see through that resend:
            // same msgid, so 103107, and the token stays spent once.
            let request = try await sandbox.loginRequest(token: sandbox.mint())
            sandbox.sandbox.setFault(.connectionReset)
            let error = try await transportError { try await sandbox.post(CMCCLoginRequest.path, request.body) }
            #expect(error?.kind == .connectionReset)
            let stats = sandbox.sandbox.stats
            #expect(stats.loginResultCodes["103000"] == 1)
            #expect(stats.tokensConsumed == 1)
            #expect((1...2).contains(stats.loginCalls))
            #expect(stats.loginCalls == 1 + stats.loginResultCodes["103107", default: 0], "\(stats)")
        }
    }

    @Test func faultsApplyToNumberVerificationToo() async throws {
        try await withSandbox({ $0.fault = .wrongInResponseTo }) { sandbox in
            let request = try await sandbox.verifyRequest(token: sandbox.mint(product: "verify"))
            let response = try await sandbox.post(CMCCVerifyRequest.path, request.body)
            let header = try #require(try object(response.body)["header"] as? [String: Any])
            #expect(header["resultCode"] as? String == "000")
            #expect(header["msgId"] as? String != request.msgId)
        }
    }

    @Test(.timeLimit(.minutes(1))) func sandboxEndpointsAreNeverFaulted() async throws {
        try await withSandbox({ $0.fault = .connectionReset; $0.latencyMs = 60_000 }) { sandbox in
            _ = try await sandbox.mint()
            let stats = try await sandbox.send(.get, "/sandbox/stats")
            #expect(stats.status == 200)
            // The control endpoints bypass faults and latency: no answer waited.
            #expect(sandbox.sandbox.stats.mostAnswersDelayedAtOnce == 0)
        }
    }

    @Test func faultsEndpointChangesTheFaultAtRunTime() async throws {
        try await withSandbox { sandbox in
            let put = try await sandbox.send(.put, "/sandbox/faults", json(["fault": "http502", "latencyMs": 0]))
            #expect(put.status == 204)
            let request = try await sandbox.loginRequest(token: sandbox.mint())
            #expect(try await sandbox.post(CMCCLoginRequest.path, request.body).status == 502)
            let bad = try await sandbox.send(.put, "/sandbox/faults", json(["fault": "meteorStrike"]))
            #expect(bad.status == 400)
            #expect(bad.bodyText.contains("connectionReset"))
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["fault": "none"])).status == 204)
            #expect(try await sandbox.login(token: sandbox.mint()).resultCode == "103000")
        }
    }

    @Test("a forced result code answers calls that would succeed, spends their token, and leaves real failures alone")
    func forcedResultCode() async throws {
        try await withSandbox { sandbox in
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": "103810"])).status == 204)
            let token = try await sandbox.mint()
            let forced = try await sandbox.login(token: token)
            #expect(forced.resultCode == "103810" && forced.msisdn == nil && forced.taskId != nil)
            #expect(forced.desc == CMCC.loginCodes.entries["103810"]?.meaning)
            #expect(try await sandbox.login(token: token).resultCode == "104201", "the forced answer spent the token")
            #expect(try await sandbox.login(token: "STsidNEVERMINTED").resultCode != "103810", "a real failure keeps its code")
            let verifyToken = try await sandbox.mint(product: "verify")
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": "002"])).status == 204)
            #expect(try await sandbox.verify(sandbox.verifyRequest(token: verifyToken)).resultCode == "002")
            for bad in ["13800138000abc", "x", "123456789"] {
                let refused = try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": bad]))
                #expect(refused.status == 400 && refused.bodyText.contains("resultCode"), "\(bad)")
            }
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": ""])).status == 204)
            #expect(try await sandbox.login(token: sandbox.mint()).resultCode == "103000")
        }
    }
}
