import CarrierSandbox
import CurlTransport
import Foundation
import PassgateCore
import PassgateTestSupport
import ProviderYidun
import Testing

/// The sandbox's NetEase Yidun endpoints, driven by Passgate's own provider over libcurl: the MD5
/// signature and millisecond timestamp checked, both tokens single use, every code scriptable.
@Suite("sandbox: NetEase Yidun")
struct YidunSandboxTests {
    static let app = YidunApp(appId: "yd-shop", businessId: "yd-business-1", secretId: "yd-secret-id", secretKey: "yd-sandbox-secret-key")

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps.append(YidunEmulator().emulatedApp(app)!)
    }

    static func context(_ clock: any PassgateClock, accessToken: String = "CMCCcarrier-token-1") throws -> CallContext {
        CallContext(clock: clock, requestId: "req-yd", providerFields: try ProviderFields(
            checking: ["accessToken": accessToken], against: YidunProvider().providerFields, provider: "yidun"))
    }

    static func exchange<Value>(_ call: PreparedCall<Value>, _ sandbox: SandboxHarness, timeoutMs: Int? = nil) async throws -> ProviderAnswer<Value> {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body, timeoutMs: timeoutMs))
        return call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body))
    }

    static func login(_ sandbox: SandboxHarness, app: YidunApp = app, token: String, accessToken: String = "CMCCcarrier-token-1",
                      clock: (any PassgateClock)? = nil) async throws -> ProviderAnswer<PhoneNumberOutcome> {
        try await exchange(try YidunProvider().phoneNumber(app: app, token: token, context: try context(clock ?? sandbox.clock, accessToken: accessToken)), sandbox)
    }

    @Test("the number and verification; Yidun's token and the carrier's accessToken are each good once (450)")
    func business() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "yd-shop", phone: "13900001234")
            let answer = try await Self.login(sandbox, token: token)
            #expect(try answer.result.get().phoneNumber == "13900001234" && answer.billable && answer.rawCode == "200")
            let again = try await Self.login(sandbox, token: token, accessToken: "CMCCcarrier-token-2")
            #expect(again.rawCode == "450" && again.result.errorCode == .tokenInvalid)
            let fresh = try await sandbox.mint(appId: "yd-shop")
            let reusedCarrierToken = try await Self.login(sandbox, token: fresh)
            #expect(reusedCarrierToken.rawCode == "450" && reusedCarrierToken.result.errorCode == .tokenInvalid)
            for (index, (number, expected)) in [("13900001234", VerificationResult.match), ("13900005678", .mismatch)].enumerated() {
                let code = try await sandbox.mint(appId: "yd-shop", phone: "13900001234", product: "verify")
                let verified = try await Self.exchange(try YidunProvider().verify(
                    app: Self.app, token: code, phoneNumber: number, context: try Self.context(sandbox.clock, accessToken: "CMCCverify-\(index)")), sandbox)
                #expect(try verified.result.get().result == expected)
            }
        }
    }

    @Test("refusals before the token is looked at: wrong secret key or timestamp unit (405), unknown business (401); the token survives them")
    func checks() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "yd-shop")
            let wrongKey = YidunApp(appId: "yd-shop", businessId: Self.app.businessId, secretId: Self.app.secretId, secretKey: "wrong")
            let refused = try await Self.login(sandbox, app: wrongKey, token: token, accessToken: "c-1")
            #expect(refused.rawCode == "405" && refused.result.errorCode == .signatureRejected)
            let otherBusiness = YidunApp(appId: "yd-shop", businessId: "another", secretId: Self.app.secretId, secretKey: Self.app.secretKey)
            #expect(try await Self.login(sandbox, app: otherBusiness, token: token, accessToken: "c-2").rawCode == "401")
            // A timestamp in seconds, correctly signed, is refused as Yidun refuses one out of range.
            let seconds = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() / 1000)
            let inSeconds = try await Self.login(sandbox, token: token, accessToken: "c-3", clock: seconds)
            #expect(inSeconds.rawCode == "405")
            #expect(try await Self.login(sandbox, token: token, accessToken: "c-4").rawCode == "200")
        }
    }

    @Test("every listed code can be forced, and each maps as the table says", arguments: ["400", "401", "405", "450", "503"])
    func forcedCodes(code: String) async throws {
        try await withSandbox(Self.configure) { sandbox in
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": code, "provider": "yidun"])).status == 204)
            let answer = try await Self.login(sandbox, token: try await sandbox.mint(appId: "yd-shop"))
            #expect(answer.rawCode == code && answer.result.errorCode == Yidun.codes[code].error && !answer.billable)
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": "isv.X", "provider": "yidun"])).status == 400)
        }
    }

    @Test("faults: HTML and truncated JSON are bad responses; a reset and a hang fail in the transport, after the token was spent",
          arguments: [SandboxFault.html, .truncatedJSON, .connectionReset, .noAnswer])
    func faults(fault: SandboxFault) async throws {
        try await withSandbox(Self.configure) { sandbox in
            sandbox.sandbox.setFault(fault)
            let token = try await sandbox.mint(appId: "yd-shop", phone: "13900008642")
            let call = try YidunProvider().phoneNumber(app: Self.app, token: token, context: try Self.context(sandbox.clock))
            do {
                let answer = try await Self.exchange(call, sandbox, timeoutMs: fault == .noAnswer ? 300 : nil)
                guard case .failure(let error) = answer.result else { Issue.record("accepted a \(fault) reply"); return }
                #expect(error.code == .carrierBadResponse && !error.message.contains("13900008642"))
                #expect(fault == .html || fault == .truncatedJSON)
            } catch let error as CurlTransportError {
                #expect(fault == .connectionReset || fault == .noAnswer)
                #expect(error.delivery == .mayHaveBeenDelivered)
            }
            sandbox.sandbox.setFault(.none)
            #expect(try await Self.login(sandbox, token: token, accessToken: "CMCCcarrier-token-9").rawCode == "450")
        }
    }
}
