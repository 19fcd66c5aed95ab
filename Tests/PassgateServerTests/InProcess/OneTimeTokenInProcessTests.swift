import CarrierSandbox
import HTTPTypes
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport
import ProviderCMCC
import Testing

/// Nothing lost, nothing spent twice, through the API in-process: the CMCC emulator answers the
/// real provider's calls, and a scripted transport in front of it fails or holds the calls a
/// test names.
@Suite("one-time tokens, in-process")
struct OneTimeTokenInProcessTests {
    static let md5 = TestConfiguration.md5App
    static let sandboxHost = "sandbox.invalid", refusingHost = "refusing.invalid"

    @Test("50 concurrent identical requests make exactly one carrier call; all get the number, 49 marked replayed")
    func singleFlight() async throws {
        let sandbox = InProcessPassgate.sandbox()
        let transport = ScriptedTransport(behind: sandbox)
        transport.then(.held(.carrier), host: Self.sandboxHost)
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: transport) { passgate in
            let token = try sandbox.mintToken(appId: Self.md5, phoneNumber: "13512345678")
            struct Seen: Sendable { var status: Int; var phone: String?; var replayed: Bool? }
            let answers = try await withThrowingTaskGroup(of: Seen.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let answer = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
                        return Seen(status: answer.status, phone: answer.json["phoneNumber"] as? String, replayed: answer.json["replayed"] as? Bool)
                    }
                }
                // The first call holds the carrier until every request has been sent (joined or waiting).
                await transport.waitUntilHeld()
                transport.letGo()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.status == 200 && $0.phone == "13512345678" }, "\(answers.map(\.status))")
            #expect(answers.filter { $0.replayed == true }.count == 49)
            #expect(sandbox.carrierCalls == 1 && transport.requests.count == 1)
            let later = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
            #expect(later.status == 200 && later.json["replayed"] as? Bool == true && later.json["phoneNumber"] as? String == "13512345678")
            #expect(sandbox.carrierCalls == 1)
        }
    }

    @Test("a token-level failure is remembered too: the repeat gets the same error without a carrier call")
    func tokenLevelFailureReplayed() async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox) { passgate in
            let foreign = try sandbox.mintToken(appId: TestConfiguration.secondMD5App, phoneNumber: "13800138000")
            let first = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": foreign])
            let second = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": foreign])
            #expect(first.errorCode == "token_app_mismatch" && second.errorCode == "token_app_mismatch")
            #expect((second.error["carrier"] as? [String: Any])?["code"] as? String == "103133")
            #expect(sandbox.carrierCalls == 1)
        }
    }

    /// One phone-number request with CMCC's first base URL failing every call with `kind` and the
    /// emulator behind the second.
    static func firstURLFailing(_ kind: TransportFailure.Kind) async throws -> (answer: APIAnswer, transport: ScriptedTransport, sandbox: CarrierSandbox) {
        let sandbox = InProcessPassgate.sandbox()
        let transport = ScriptedTransport(behind: sandbox)
        transport.always(.failure(kind), host: Self.refusingHost)
        var configuration = InProcessPassgate.cmccConfiguration()
        configuration.providers[CMCC.providerID]?.baseURLs = ["https://\(Self.refusingHost)", InProcessPassgate.sandboxURL]
        let raw = try await InProcessPassgate.with(configuration, carrier: transport) { passgate in
            let token = try sandbox.mintToken(appId: Self.md5, phoneNumber: "13800138000")
            return try await passgate.start("/v1/phone-number", ["appId": Self.md5, "token": token]).value
        }
        return (raw.answer, transport, sandbox)
    }

    @Test("fail-over: a first base URL that proves the request unsent is skipped, the second answers, one carrier call",
          arguments: TransportFailure.Kind.allCases.filter { !$0.mayHaveBeenDelivered })
    func failoverWhenNotSent(kind: TransportFailure.Kind) async throws {
        let (answer, transport, sandbox) = try await Self.firstURLFailing(kind)
        #expect(answer.status == 200, "\(kind): \(answer.body)")
        #expect(transport.requests(host: Self.refusingHost).count == 1 && sandbox.carrierCalls == 1)
    }

    @Test("no fail-over after a send: a first base URL after which the request may have left is its error, and the second is never called",
          arguments: TransportFailure.Kind.allCases.filter(\.mayHaveBeenDelivered))
    func noFailoverAfterSend(kind: TransportFailure.Kind) async throws {
        let (answer, transport, sandbox) = try await Self.firstURLFailing(kind)
        let expected = PassgateError(transport: TransportFailure(kind: kind, detail: "", host: Self.refusingHost))
        #expect(answer.status == expected.status.code && answer.errorCode == expected.code.rawValue, "\(kind): \(answer.body)")
        #expect([504, 502].contains(answer.status) && answer.error["action"] as? String == "new_token", "\(answer.body)")
        #expect(transport.requests(host: Self.sandboxHost).isEmpty && sandbox.carrierCalls == 0)
    }

    @Test("a call that may have reached the carrier without an answer it could read is remembered: the retry gets the same new_token answer and no second call",
          arguments: [(SandboxFault.connectionReset, "carrier_timeout"), (.noAnswer, "carrier_timeout"), (.truncatedJSON, "carrier_bad_response"), (.html, "carrier_bad_response")])
    func mayBeSpentIsRemembered(fault: SandboxFault, code: String) async throws {
        var configuration = InProcessPassgate.cmccConfiguration()
        configuration.providers[CMCC.providerID]?.circuitFailureThreshold = 100
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(configuration, carrier: sandbox) { passgate in
            let token = try sandbox.mintToken(appId: Self.md5, phoneNumber: "13800138000")
            sandbox.setFault(fault)
            let first = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
            #expect(first.errorCode == code && first.error["action"] as? String == "new_token", "\(first.body)")
            sandbox.setFault(.none)
            let retry = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
            #expect(retry.errorCode == code && retry.error["action"] as? String == "new_token" && retry.error["retryable"] as? Bool == false, "\(retry.body)")
            #expect((retry.error["message"] as? String)?.contains("may be spent") == true)
            #expect(sandbox.carrierCalls == 1)
        }
    }
}
