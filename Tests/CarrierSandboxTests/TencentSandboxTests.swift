import CarrierSandbox
import CurlTransport
import Foundation
import PassgateCore
import PassgateTestSupport
import ProviderTencent
import Testing

/// The sandbox's Tencent Cloud endpoint, driven by Passgate's own provider over libcurl: the
/// query's sdkappid and random, the sig, the time in seconds, single-use tokens, forced codes.
@Suite("sandbox: Tencent Cloud")
struct TencentSandboxTests {
    static let app = TencentApp(appId: "1400123456", appKey: "tc-sandbox-app-key")

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps.append(TencentEmulator().emulatedApp(app)!)
    }

    static func login(_ sandbox: SandboxHarness, app: TencentApp = app, token: String, clock: (any PassgateClock)? = nil, timeoutMs: Int? = nil)
        async throws -> (PreparedCall<PhoneNumberOutcome>, ProviderAnswer<PhoneNumberOutcome>)
    {
        let call = try TencentProvider().phoneNumber(app: app, token: token, context: CallContext(clock: clock ?? sandbox.clock, requestId: "req-tc"))
        return (call, try await send(call, sandbox, timeoutMs: timeoutMs))
    }

    static func send(_ call: PreparedCall<PhoneNumberOutcome>, _ sandbox: SandboxHarness, timeoutMs: Int? = nil) async throws -> ProviderAnswer<PhoneNumberOutcome> {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body, timeoutMs: timeoutMs))
        return call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body))
    }

    @Test("the number; a used token is refused with the raw code kept; a resent request (same random) is refused")
    func business() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "1400123456", phone: "13900001234")
            let (call, answer) = try await Self.login(sandbox, token: token)
            #expect(try answer.result.get().phoneNumber == "13900001234" && answer.billable && answer.rawCode == "0")
            let (_, again) = try await Self.login(sandbox, token: token)
            #expect(again.rawCode == TencentEmulator.SandboxCode.badToken && again.result.errorCode == .carrierError)
            #expect(try await Self.send(call, sandbox).rawCode == TencentEmulator.SandboxCode.badSig)
        }
    }

    @Test("refusals before the token is spent: wrong AppKey, time in milliseconds, unknown sdkappid")
    func checks() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "1400123456")
            #expect(try await Self.login(sandbox, app: TencentApp(appId: "1400123456", appKey: "wrong"), token: token).1.rawCode == "1001")
            #expect(try await Self.login(sandbox, app: TencentApp(appId: "1400999999", appKey: "x"), token: token).1.rawCode == "1003")
            // The provider's clock multiplied by 1000 sends what a milliseconds mistake would.
            let milliseconds = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() * 1000)
            #expect(try await Self.login(sandbox, token: token, clock: milliseconds).1.rawCode == "1002")
            #expect(try await Self.login(sandbox, token: token).1.rawCode == "0")
        }
    }

    @Test("forced codes answer with the raw code kept, and faults reach the client", arguments: [SandboxFault.html, .truncatedJSON, .connectionReset, .noAnswer])
    func faults(fault: SandboxFault) async throws {
        try await withSandbox(Self.configure) { sandbox in
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": "4321", "provider": "tencent"])).status == 204)
            let forced = try await Self.login(sandbox, token: try await sandbox.mint(appId: "1400123456")).1
            #expect(forced.rawCode == "4321" && forced.result.errorCode == .carrierError)
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": ""])).status == 204)
            sandbox.sandbox.setFault(fault)
            let token = try await sandbox.mint(appId: "1400123456", phone: "13900008642")
            do {
                let answer = try await Self.login(sandbox, token: token, timeoutMs: fault == .noAnswer ? 300 : nil).1
                #expect(answer.result.errorCode == .carrierBadResponse && (fault == .html || fault == .truncatedJSON))
            } catch let error as CurlTransportError {
                #expect((fault == .connectionReset || fault == .noAnswer) && error.delivery == .mayHaveBeenDelivered)
            }
            sandbox.sandbox.setFault(.none)
            #expect(try await Self.login(sandbox, token: token).1.rawCode == TencentEmulator.SandboxCode.badToken)
        }
    }
}
