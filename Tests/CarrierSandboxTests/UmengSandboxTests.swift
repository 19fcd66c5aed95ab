import CarrierSandbox
import CurlTransport
import Foundation
import PassgateCore
import PassgateTestSupport
import ProviderUmeng
import Testing

/// The sandbox's Umeng behind its API gateway, driven by Passgate's own provider over libcurl:
/// gateway refusals as a 4xx with an empty body and `X-Ca-Error-Message`, then Umeng's answers.
@Suite("sandbox: Umeng")
struct UmengSandboxTests {
    static let app = UmengApp(appId: "um-shop", gatewayAppKey: "204000777", gatewayAppSecret: "sandbox-gateway-secret")

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps.append(UmengEmulator().emulatedApp(app)!)
    }

    static func exchange<Value>(_ call: PreparedCall<Value>, _ sandbox: SandboxHarness, timeoutMs: Int? = nil) async throws -> (Int, ProviderAnswer<Value>) {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body, timeoutMs: timeoutMs))
        let reply = CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body, headers: response.headers)
        return (response.status, call.interpret(reply))
    }

    static func context(_ clock: any PassgateClock) -> CallContext { CallContext(clock: clock, requestId: "req-um") }

    @Test("the number and its verification; the token is single use; a verification token is refused for the number")
    func business() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "um-shop", phone: "13900001234")
            let (status, answer) = try await Self.exchange(try UmengProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock)), sandbox)
            #expect(status == 200 && answer.billable && answer.taskId?.count == 36)
            #expect(try answer.result.get().phoneNumber == "13900001234")
            let (_, again) = try await Self.exchange(try UmengProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock)), sandbox)
            #expect(again.rawCode == UmengEmulator.SandboxCode.tokenInvalid && again.result.errorCode == .carrierError)
            for (number, expected) in [("13900001234", VerificationResult.match), ("13900005678", .mismatch)] {
                let code = try await sandbox.mint(appId: "um-shop", phone: "13900001234", product: "verify")
                let (_, verified) = try await Self.exchange(
                    try UmengProvider().verify(app: Self.app, token: code, phoneNumber: number, context: Self.context(sandbox.clock)), sandbox)
                #expect(try verified.result.get().result == expected)
            }
        }
    }

    @Test("gateway refusals before the token is spent: wrong secret, unknown key, stale clock (or seconds), a resent nonce")
    func gateway() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "um-shop")
            let wrong = UmengApp(appId: "um-shop", gatewayAppKey: Self.app.gatewayAppKey, gatewayAppSecret: "not-it")
            let (status, refused) = try await Self.exchange(try UmengProvider().phoneNumber(app: wrong, token: token, context: Self.context(sandbox.clock)), sandbox)
            #expect(status == 400 && refused.rawCode == "Invalid Signature" && refused.result.errorCode == .signatureRejected)
            let unknown = UmengApp(appId: "um-shop", gatewayAppKey: "204000999", gatewayAppSecret: "x")
            #expect(try await Self.exchange(try UmengProvider().phoneNumber(app: unknown, token: token, context: Self.context(sandbox.clock)), sandbox).1.rawCode == "Invalid AppKey")
            let stale = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() - 16 * 60 * 1000)
            #expect(try await Self.exchange(try UmengProvider().phoneNumber(app: Self.app, token: token, context: Self.context(stale)), sandbox).1.rawCode == "Invalid Timestamp")
            let seconds = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() / 1000)
            #expect(try await Self.exchange(try UmengProvider().phoneNumber(app: Self.app, token: token, context: Self.context(seconds)), sandbox).1.rawCode == "Invalid Timestamp")
            let call = try UmengProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock))
            #expect(try await Self.exchange(call, sandbox).1.rawCode == "200", "none of them spent the token")
            #expect(try await Self.exchange(call, sandbox).1.rawCode == "Nonce Used")
        }
    }

    @Test("every gateway code of the table and a business code can be forced")
    func forcedCodes() async throws {
        try await withSandbox(Self.configure) { sandbox in
            for code in Umeng.codes.entries.keys.sorted() + ["5009"] where code != "200" {
                #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": code, "provider": "umeng"])).status == 204)
                let call = try UmengProvider().phoneNumber(app: Self.app, token: try await sandbox.mint(appId: "um-shop"), context: Self.context(sandbox.clock))
                let (_, answer) = try await Self.exchange(call, sandbox)
                #expect(answer.rawCode == code && answer.result.errorCode == (Umeng.codes.entries[code] ?? Umeng.codes[code]).error, "\(code)")
            }
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": "Made Up", "provider": "umeng"])).status == 400)
        }
    }

    @Test("faults: HTML, truncated JSON, reset and no answer", arguments: [SandboxFault.html, .truncatedJSON, .connectionReset, .noAnswer])
    func faults(fault: SandboxFault) async throws {
        try await withSandbox({ Self.configure(&$0); $0.fault = fault }) { sandbox in
            let call = try UmengProvider().phoneNumber(app: Self.app, token: try await sandbox.mint(appId: "um-shop"), context: Self.context(sandbox.clock))
            switch fault {
            case .connectionReset, .noAnswer:
                await #expect(throws: CurlTransportError.self) { try await Self.exchange(call, sandbox, timeoutMs: 300) }
            default:
                #expect(try await Self.exchange(call, sandbox).1.result.errorCode == .carrierBadResponse)
            }
        }
    }
}
