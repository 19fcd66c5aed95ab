import CarrierSandbox
import CurlTransport
import Foundation
import PassgateCore
import PassgateTestSupport
import ProviderGetui
import Testing

/// The sandbox's Getui, driven by Passgate's own provider over libcurl: the app, the sign over
/// both secrets and its millisecond timestamp, the single-use token, the AES-128 number, forced
/// codes and faults.
@Suite("sandbox: Getui")
struct GetuiSandboxTests {
    static let app = GetuiApp(appId: "gy-shop", appSecret: "gyAppSecret01", masterSecret: "gyMasterSecret0123456789")

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps.append(GetuiEmulator().emulatedApp(app)!)
    }

    static func exchange<Value>(_ call: PreparedCall<Value>, _ sandbox: SandboxHarness, timeoutMs: Int? = nil) async throws -> ProviderAnswer<Value> {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body, timeoutMs: timeoutMs))
        return call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body))
    }

    static func context(_ clock: any PassgateClock) throws -> CallContext {
        CallContext(clock: clock, requestId: "req-gy", providerFields: try ProviderFields(checking: ["gyuid": "gyuid0001"], against: GetuiProvider().providerFields, provider: "getui"))
    }

    static func phoneNumber(_ app: GetuiApp = Self.app, token: String, clock: any PassgateClock, _ sandbox: SandboxHarness) async throws -> ProviderAnswer<PhoneNumberOutcome> {
        try await exchange(try GetuiProvider().phoneNumber(app: app, token: token, context: context(clock)), sandbox)
    }

    @Test("gy_get_pn answers the number AES-128 encrypted; a used token gets the sandbox's undocumented code, kept raw")
    func business() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "gy-shop", phone: "13900001234")
            let answer = try await Self.phoneNumber(token: token, clock: sandbox.clock, sandbox)
            #expect(try answer.result.get().phoneNumber == "13900001234" && answer.billable && answer.rawCode == "20000")
            let again = try await Self.phoneNumber(token: token, clock: sandbox.clock, sandbox)
            #expect(again.rawCode == GetuiEmulator.tokenRefusedCode && again.result.errorCode == .carrierError)
        }
    }

    @Test("wrong secrets are 60008, an unknown appId 40004, a timestamp in seconds 40032; none spends the token")
    func refusals() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "gy-shop")
            let wrong = GetuiApp(appId: "gy-shop", appSecret: "other", masterSecret: Self.app.masterSecret)
            #expect(try await Self.phoneNumber(wrong, token: token, clock: sandbox.clock, sandbox).rawCode == "60008")
            let unknown = GetuiApp(appId: "gy-unknown", appSecret: "a", masterSecret: Self.app.masterSecret)
            #expect(try await Self.phoneNumber(unknown, token: token, clock: sandbox.clock, sandbox).rawCode == "40004")
            let seconds = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() / 1000)
            #expect(try await Self.phoneNumber(token: token, clock: seconds, sandbox).rawCode == "40032")
            #expect(try await Self.phoneNumber(token: token, clock: sandbox.clock, sandbox).rawCode == "20000")
        }
    }

    @Test("every listed code can be forced for Getui's calls", arguments: ["40004", "40031", "40032", "60002", "60008"])
    func forcedCode(code: String) async throws {
        try await withSandbox(Self.configure) { sandbox in
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": code, "provider": "getui"])).status == 204)
            let answer = try await Self.phoneNumber(token: try await sandbox.mint(appId: "gy-shop"), clock: sandbox.clock, sandbox)
            #expect(answer.rawCode == code && answer.result.errorCode == Getui.codes[code].error && !answer.billable)
        }
    }

    @Test("faults reach the provider as carrier_bad_response, or as the transport's failure", arguments: [SandboxFault.html, .truncatedJSON, .connectionReset, .noAnswer])
    func faults(fault: SandboxFault) async throws {
        try await withSandbox({ Self.configure(&$0); $0.fault = fault }) { sandbox in
            let call = try GetuiProvider().phoneNumber(app: Self.app, token: try await sandbox.mint(appId: "gy-shop"), context: Self.context(sandbox.clock))
            switch fault {
            case .html, .truncatedJSON:
                #expect(try await Self.exchange(call, sandbox).result.errorCode == .carrierBadResponse)
            default:
                await #expect(throws: CurlTransportError.self) { _ = try await Self.exchange(call, sandbox, timeoutMs: 300) }
            }
        }
    }
}
