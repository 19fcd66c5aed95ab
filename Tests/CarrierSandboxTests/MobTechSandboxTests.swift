import CarrierSandbox
import CurlTransport
import Foundation
import PassgateCore
import PassgateTestSupport
import ProviderMobTech
import Testing

/// The sandbox's MobTech endpoint, driven by Passgate's own provider over libcurl: sign and
/// millisecond timestamp checked, Mob's token spent once with its opToken, the answer DES-encrypted.
@Suite("sandbox: MobTech")
struct MobTechSandboxTests {
    static let app = MobTechApp(appId: "mob-shop", appSecret: "sandbox-mob-app-secret")

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps.append(MobTechEmulator().emulatedApp(app)!)
    }

    static func exchange(_ call: PreparedCall<PhoneNumberOutcome>, _ sandbox: SandboxHarness, timeoutMs: Int? = nil) async throws -> ProviderAnswer<PhoneNumberOutcome> {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body, timeoutMs: timeoutMs))
        return call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body))
    }

    /// The sandbox's MobTech takes the minted token as both Mob's token and the carrier's opToken.
    static func call(_ token: String, opToken: String? = nil, app: MobTechApp = app, clock: any PassgateClock, operator carrier: String = "CMCC") throws -> PreparedCall<PhoneNumberOutcome> {
        let fields = try ProviderFields(
            checking: ["opToken": opToken ?? token, "operator": carrier], against: MobTechProvider().providerFields, provider: "mobtech")
        return try MobTechProvider().phoneNumber(app: app, token: token, context: CallContext(clock: clock, requestId: "req-mob", providerFields: fields))
    }

    @Test("the number comes back DES-encrypted and decrypts; the token is single use; another opToken is 4119311")
    func login() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "mob-shop", phone: "13900001234")
            let answer = try await Self.exchange(try Self.call(token, clock: sandbox.clock), sandbox)
            #expect(try answer.result.get().phoneNumber == "13900001234")
            #expect(answer.billable && answer.rawCode == "200" && answer.taskId != nil)
            let again = try await Self.exchange(try Self.call(token, clock: sandbox.clock), sandbox)
            #expect(again.rawCode == "4119310" && again.result.errorCode == .tokenInvalid)
            let other = try await sandbox.mint(appId: "mob-shop")
            let mismatched = try await Self.exchange(try Self.call(other, opToken: "another-op-token", clock: sandbox.clock), sandbox)
            #expect(mismatched.rawCode == "4119311" && mismatched.result.errorCode == .tokenInvalid)
        }
    }

    @Test("refused before the token is spent: wrong AppSecret (sign), unknown appkey, a clock off by more than the skew, in seconds not ms")
    func refusals() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "mob-shop")
            let wrong = MobTechApp(appId: "mob-shop", appSecret: "another-app-secret")
            #expect(try await Self.exchange(try Self.call(token, app: wrong, clock: sandbox.clock), sandbox).rawCode == "4119342")
            let unknown = MobTechApp(appId: "mob-unknown", appSecret: Self.app.appSecret)
            #expect(try await Self.exchange(try Self.call(token, app: unknown, clock: sandbox.clock), sandbox).rawCode == "4119331")
            let stale = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() - 301_000)
            let expired = try await Self.exchange(try Self.call(token, clock: stale), sandbox)
            #expect(expired.rawCode == "4119343" && expired.result.errorCode == .signatureRejected)
            let seconds = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() / 1000)
            #expect(try await Self.exchange(try Self.call(token, clock: seconds), sandbox).rawCode == "4119343")
            #expect(try await Self.exchange(try Self.call(token, clock: sandbox.clock, operator: "CUCC"), sandbox).rawCode == "200", "none spent it")
        }
    }

    @Test("every code of the table can be forced, and answers with that code and no number")
    func forcedCodes() async throws {
        try await withSandbox(Self.configure) { sandbox in
            for code in MobTech.codes.entries.keys.sorted() where code != "200" {
                #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": code, "provider": "mobtech"])).status == 204)
                let answer = try await Self.exchange(try Self.call(try await sandbox.mint(appId: "mob-shop"), clock: sandbox.clock), sandbox)
                #expect(answer.rawCode == code && answer.result.errorCode == MobTech.codes[code].error, "\(code)")
            }
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": "1380013", "provider": "mobtech"])).status == 400)
        }
    }

    @Test("faults: HTML, truncated JSON, reset and no answer reach the provider as bad replies or transport failures", arguments: [
        SandboxFault.html, .truncatedJSON, .connectionReset, .noAnswer,
    ])
    func faults(fault: SandboxFault) async throws {
        try await withSandbox({ Self.configure(&$0); $0.fault = fault }) { sandbox in
            let call = try Self.call(try await sandbox.mint(appId: "mob-shop"), clock: sandbox.clock)
            switch fault {
            case .connectionReset, .noAnswer:
                await #expect(throws: CurlTransportError.self) { try await Self.exchange(call, sandbox, timeoutMs: 300) }
            default:
                #expect(try await Self.exchange(call, sandbox).result.errorCode == .carrierBadResponse)
            }
        }
    }
}
