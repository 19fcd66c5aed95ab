import CarrierSandbox
import CurlTransport
import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderGeetest
import Testing

/// The sandbox's Geetest, driven by Passgate's own provider over libcurl: the sign and its
/// millisecond timestamp, the single-use flow id, the AES-256 number, forced codes and faults.
@Suite("sandbox: Geetest")
struct GeetestSandboxTests {
    static let app = GeetestApp(appId: "gt-shop", appKey: "0123456789abcdef0123456789abcdef")

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps.append(GeetestEmulator().emulatedApp(app)!)
    }

    static func exchange<Value>(_ call: PreparedCall<Value>, _ sandbox: SandboxHarness, timeoutMs: Int? = nil) async throws -> ProviderAnswer<Value> {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body, timeoutMs: timeoutMs))
        return call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body))
    }

    static func context(_ clock: any PassgateClock, processId: String = Self.freshProcessId()) throws -> CallContext {
        CallContext(
            clock: clock, requestId: "req-gt",
            providerFields: try ProviderFields(checking: ["processId": processId], against: GeetestProvider().providerFields, provider: "geetest"))
    }

    static func freshProcessId() -> String { Hex.lowercase((try? SecureRandom.bytes(count: 16)) ?? []) }

    @Test("check_phone answers the number AES-256 encrypted; the token and the flow id are each spent once; check_gateway verifies")
    func business() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "gt-shop", phone: "13900001234")
            let processId = Self.freshProcessId()
            let call = try GeetestProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock, processId: processId))
            let response = try await sandbox.client.send(CurlHTTPClient.Request(
                method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body))
            let raw = try object(response.body)
            #expect(raw["status"] as? Int == 200 && raw["charge"] as? Bool == true && (raw["result"] as? String)?.count == 32, "encrypted, not in clear")
            let answer = call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body))
            #expect(try answer.result.get().phoneNumber == "13900001234" && answer.billable)
            // The same flow id again, with a fresh token: spent already.
            let fresh = try await sandbox.mint(appId: "gt-shop")
            let reused = try await Self.exchange(try GeetestProvider().phoneNumber(app: Self.app, token: fresh, context: Self.context(sandbox.clock, processId: processId)), sandbox)
            #expect(reused.rawCode == "12101" && reused.result.errorCode == .tokenInvalid)
            // The same token with a fresh flow id: the token is spent.
            let spent = try await Self.exchange(try GeetestProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock)), sandbox)
            #expect(spent.rawCode == "12200" && spent.result.errorCode == .tokenInvalid)
            let plain = GeetestApp(appId: "gt-shop", appKey: Self.app.appKey, encryptNumber: false)
            let clear = try await Self.exchange(
                try GeetestProvider().phoneNumber(app: plain, token: try await sandbox.mint(appId: "gt-shop"), context: Self.context(sandbox.clock)), sandbox)
            #expect(try clear.result.get().phoneNumber == "13800138000")
            for (number, expected) in [("13900001234", VerificationResult.match), ("13900005678", .mismatch)] {
                let code = try await sandbox.mint(appId: "gt-shop", phone: "13900001234", product: "verify")
                let verified = try await Self.exchange(
                    try GeetestProvider().verify(app: Self.app, token: code, phoneNumber: number, context: Self.context(sandbox.clock)), sandbox)
                #expect(try verified.result.get().result == expected)
            }
        }
    }

    @Test("a wrong app_key is a sign error, a timestamp in seconds or 11 minutes off is 12005; none spends the token or the flow id")
    func refusals() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "gt-shop")
            let processId = Self.freshProcessId()
            let wrongKey = GeetestApp(appId: "gt-shop", appKey: "fedcba9876543210fedcba9876543210")
            let signError = try await Self.exchange(try GeetestProvider().phoneNumber(app: wrongKey, token: token, context: Self.context(sandbox.clock, processId: processId)), sandbox)
            #expect(signError.rawCode == "12105" && signError.result.errorCode == .signatureRejected)
            let stale = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() - 11 * 60 * 1000)
            let late = try await Self.exchange(try GeetestProvider().phoneNumber(app: Self.app, token: token, context: Self.context(stale, processId: processId)), sandbox)
            #expect(late.rawCode == "12005" && late.result.errorCode == .signatureRejected)
            // Seconds where milliseconds belong: the sign is right for that timestamp, the unit is not.
            let seconds = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() / 1000)
            let unit = try await Self.exchange(try GeetestProvider().phoneNumber(app: Self.app, token: token, context: Self.context(seconds, processId: processId)), sandbox)
            #expect(unit.rawCode == "12005")
            let verifyLate = try await Self.exchange(
                try GeetestProvider().verify(app: Self.app, token: token, phoneNumber: "13800138000", context: Self.context(stale)), sandbox)
            #expect(verifyLate.rawCode == "2005")
            let ok = try await Self.exchange(try GeetestProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock, processId: processId)), sandbox)
            #expect(try ok.result.get().phoneNumber == "13800138000")
        }
    }

    @Test("every listed code can be forced for Geetest's calls", arguments: ["500", "12005", "12007", "12100", "12101", "12104", "12105", "12108", "12109", "12200"])
    func forcedCode(code: String) async throws {
        try await withSandbox(Self.configure) { sandbox in
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": code, "provider": "geetest"])).status == 204)
            let answer = try await Self.exchange(
                try GeetestProvider().phoneNumber(app: Self.app, token: try await sandbox.mint(appId: "gt-shop"), context: Self.context(sandbox.clock)), sandbox)
            #expect(answer.rawCode == code && answer.result.errorCode == Geetest.codes[code].error && !answer.billable)
        }
    }

    @Test("faults reach the provider as carrier_bad_response, or as the transport's failure", arguments: [SandboxFault.html, .truncatedJSON, .connectionReset, .noAnswer])
    func faults(fault: SandboxFault) async throws {
        try await withSandbox({ Self.configure(&$0); $0.fault = fault }) { sandbox in
            let call = try GeetestProvider().phoneNumber(app: Self.app, token: try await sandbox.mint(appId: "gt-shop"), context: Self.context(sandbox.clock))
            switch fault {
            case .html, .truncatedJSON:
                #expect(try await Self.exchange(call, sandbox).result.errorCode == .carrierBadResponse)
            default:
                await #expect(throws: CurlTransportError.self) { _ = try await Self.exchange(call, sandbox, timeoutMs: 300) }
            }
        }
    }
}
